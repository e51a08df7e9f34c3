#!/usr/bin/env bash
# Benchmark: `ddigen layout` over the full matrix (3 architectures x every
# DDI version) of a WDK include folder, against the same matrix run as plain
# `clang -fsyntax-only` processes, in one run. Prints the ratio (target
# <= 0.5). Best of N runs for each side.
#   bench_layout.sh DDIGEN CLANG WDK_DIR [RUNS]
set -euo pipefail
ddigen=$1 clang=$2 wdk=$3 runs=${4:-3}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

now() { date +%s%N; }
best=""
ms() { echo $(( ($2 - $1) / 1000000 )); }

"$ddigen" overlay --wdk "$wdk" -o "$work/overlay.json"
versions=$(grep -ho '#define DXGKDDI_INTERFACE_VERSION_[A-Za-z0-9_]*[[:space:]]\+0x[0-9A-Fa-f]*' \
    "$wdk"/shared/*.h "$wdk"/km/*.h 2>/dev/null | awk '{print $2}' | sort -u)
nver=$(echo "$versions" | wc -l)
printf '#include <ntddk.h>\n#include <dispmprt.h>\n' >"$work/tu.c"

# One line per configuration: triple, arch macro, DDI version.
matrix() {
    for arch in "i686 _X86_" "x86_64 _AMD64_" "aarch64 _ARM64_"; do
        for v in $versions; do
            echo "$arch $v"
        done
    done
}

# clang rejects the WDK's static_assert(FIELD_OFFSET(...)) in C; stubbing it
# out lets every run succeed, which the benchmark checks (a failing run
# would measure nothing).
export CLANG_BIN=$clang OVERLAY=$work/overlay.json WDK=$wdk TU=$work/tu.c FAILED=$work/failed
one_clang='"$CLANG_BIN" -fsyntax-only -target "$0-pc-windows-msvc" -fms-extensions -fms-compatibility \
    -fms-compatibility-version=19.38 -nostdlibinc -D"$1" -D_KERNEL_MODE -DDXGKDDI_INTERFACE_VERSION="$2" \
    "-Dstatic_assert(...)=" -ivfsoverlay "$OVERLAY" -I"$WDK/km" -I"$WDK/shared" -I"$WDK/um" -Wno-everything "$TU" \
    || echo "$0 $1 $2" >>"$FAILED"'
run_clang_matrix() { # parallelism
    matrix | xargs -P "$1" -n 3 sh -c "$one_clang"
}

time_best() { # command...
    local best_ms=""
    for _ in $(seq "$runs"); do
        local t0 t1
        t0=$(now); "$@" >/dev/null 2>&1 || true; t1=$(now)
        local m; m=$(ms "$t0" "$t1")
        if [ -z "$best_ms" ] || [ "$m" -lt "$best_ms" ]; then best_ms=$m; fi
    done
    echo "$best_ms"
}

cores=$(nproc)
rm -f "$work/failed"
run_clang_matrix 1
if [ -s "$work/failed" ]; then
    echo "bench_layout: plain clang failed for:"; cat "$work/failed"; exit 1
fi
ddigen_ms=$(time_best "$ddigen" layout --wdk "$wdk" -q -o "$work/spec.xml")
ddigen_nopch_ms=$(time_best "$ddigen" layout --wdk "$wdk" -q --no-pch -o "$work/spec2.xml")
ddigen_1_ms=$(time_best "$ddigen" layout --wdk "$wdk" -q -j 1 -o "$work/spec3.xml")
clang_seq_ms=$(time_best run_clang_matrix 1)
clang_par_ms=$(time_best run_clang_matrix "$cores")
configs=$((3 * nver))
echo "layout matrix: $configs configurations (3 archs x $nver DDI versions) of $wdk"
echo "  clang -fsyntax-only, one process each, sequential : ${clang_seq_ms} ms ($((clang_seq_ms / configs)) ms each)"
echo "  clang -fsyntax-only, one process each, $cores in parallel: ${clang_par_ms} ms"
echo "  ddigen layout (PCH prefix, $cores threads)              : ${ddigen_ms} ms"
echo "  ddigen layout --no-pch                                : ${ddigen_nopch_ms} ms"
echo "  ddigen layout -j 1                                    : ${ddigen_1_ms} ms"
awk -v d="$ddigen_ms" -v s="$clang_seq_ms" -v p="$clang_par_ms" 'BEGIN {
    printf "ratio ddigen / sequential clang = %.3f (target <= 0.5)\n", d / s;
    printf "ratio ddigen / parallel clang   = %.3f\n", d / p }'
