#!/usr/bin/env bash
# Compiles the generated validators (ddi_validate.h, ddi_validate.c,
# ddi_rules.c) against a fixture WDK release: clang for i686/x86_64/
# aarch64-pc-windows-msvc and host gcc/clang, -ffreestanding -Wall -Wextra
# -Werror, the .c files as C and the header also as C++, at every DDI
# version of the spec and with none given (the kit's default).
# QUICK=1: only the oldest and newest version and the default (for the
# real pages, which are read in place and may be absent).
#   validate_compile.sh DDIGEN CLANG WDK_DIR DOCS_DIR OVERRIDES WORK
set -u
ddigen=$1 clang=$2 wdk=$3 docs=$4 overrides=$5 work=$6
if [ ! -d "$docs" ]; then
    echo "skipped: $docs is not there (the real pages live beside the checkout)"
    exit 0
fi
rm -rf "$work" && mkdir -p "$work"
runtime_inc=$(cd "$(dirname "$0")/../../runtime/include" && pwd)

"$ddigen" generate --wdk "$wdk" --docs "$docs" --overrides "$overrides" -q -o "$work/gen" ||
    { echo "FAIL generate"; exit 1; }
inc=$work/gen/include
for f in ddi_validate.h ddi_validate.c ddi_rules.c; do
    [ -s "$inc/$f" ] || { echo "FAIL $f was not generated"; exit 1; }
done
grep -q 'ddi_validate_DXGKARG_BUILDPAGINGBUFFER_in(' "$inc/ddi_validate.c" ||
    { echo "FAIL no BuildPagingBuffer validator"; exit 1; }
"$ddigen" overlay --wdk "$wdk" -o "$work/overlay.json"
versions=$(grep -o '<version name="[A-Za-z0-9_]*"' "$work/gen/spec/ddi.xml" | sed 's/.*name="\(.*\)"/\1/')
if [ "${QUICK:-0}" = 1 ]; then
    versions=$(printf '%s\n%s\n' "$(echo "$versions" | head -1)" "$(echo "$versions" | tail -1)")
fi

cat >"$work/tu.c" <<'TU'
#include <ntddk.h>
#include <dispmprt.h>
#define DDI_VALIDATE_NO_WDK_INCLUDES
#include "ddi_validate.c"
#include "ddi_rules.c"
TU
cat >"$work/tu.cpp" <<'TU'
#include <ntddk.h>
#include <dispmprt.h>
#include "ddi_validate.h"
TU
common=(-ffreestanding -Wall -Wextra -Werror -fsyntax-only -I"$inc" -I"$runtime_inc")

check_msvc() { # triple define version
    local triple=$1 define=$2 v=$3 vdef log=$work/log-$1-$3.txt
    vdef=-DDXGKDDI_INTERFACE_VERSION="$v"
    [ "$v" = default ] && vdef=-DDDIGEN_KIT_DEFAULT_VERSION
    # clang rejects the kit's static_assert(FIELD_OFFSET(...)) in C (MSVC
    # accepts it): compiled out, as in the layout assert tests.
    local msvc=(-target "$triple-pc-windows-msvc" -fms-extensions -fms-compatibility -fms-compatibility-version=19.38
                -nostdlibinc -Wno-nonportable-include-path -D"$define" -D_KERNEL_MODE "$vdef" -ivfsoverlay "$work/overlay.json"
                -I"$wdk/km" -I"$wdk/shared" -I"$wdk/um")
    "$clang" "${msvc[@]}" '-Dstatic_assert(...)=' "${common[@]}" "$work/tu.c" >"$log" 2>&1 ||
        { echo "FAIL $triple $v: C"; head -20 "$log"; return; }
    "$clang" -x c++ "${msvc[@]}" '-Dstatic_assert(...)=' "${common[@]}" "$work/tu.cpp" >"$log" 2>&1 ||
        { echo "FAIL $triple $v: the header as C++"; head -20 "$log"; }
}

check_host() { # compiler version
    local cc=$1 v=$2 vdef log=$work/log-host-$1-$2.txt cxx=g++
    [ "$cc" = clang ] && cxx=clang++
    vdef=-DDXGKDDI_INTERFACE_VERSION="$v"
    [ "$v" = default ] && vdef=-DDDIGEN_KIT_DEFAULT_VERSION
    local host=("$vdef" -I"$wdk/km" -I"$wdk/shared" -I"$wdk/um")
    "$cc" -std=c11 "${host[@]}" "${common[@]}" "$work/tu.c" >"$log" 2>&1 ||
        { echo "FAIL host $cc $v: C"; head -20 "$log"; return; }
    if command -v "$cxx" >/dev/null; then
        "$cxx" -x c++ "${host[@]}" "${common[@]}" "$work/tu.cpp" >"$log" 2>&1 ||
            { echo "FAIL host $cxx $v: the header as C++"; head -20 "$log"; }
    fi
}

n=0
jobs=$(nproc 2>/dev/null || echo 2)
for v in $versions default; do
    for a in i686:_X86_ x86_64:_AMD64_ aarch64:_ARM64_; do
        n=$((n + 1))
        while [ "$(jobs -rp | wc -l)" -ge "$jobs" ]; do wait -n; done
        check_msvc "${a%%:*}" "${a##*:}" "$v" >"$work/result-$n.txt" &
    done
    for cc in gcc clang; do
        n=$((n + 1))
        while [ "$(jobs -rp | wc -l)" -ge "$jobs" ]; do wait -n; done
        check_host "$cc" "$v" >"$work/result-$n.txt" &
    done
done
wait
failed=0
for r in "$work"/result-*.txt; do
    if [ -s "$r" ]; then cat "$r"; failed=$((failed + 1)); fi
done
configs=$(($(echo "$versions" | wc -l) + 1))
if [ $failed -eq 0 ]; then
    echo "ok   validators compile (C, header as C++) for 3 MSVC targets and host gcc/clang at $configs configurations ($n runs)"
fi
[ $failed -eq 0 ]
