#!/usr/bin/env bash
# Compiles the generated ddi_layout_asserts.h against a fixture WDK release
# with clang for i686/x86_64/aarch64-pc-windows-msvc, as C and as C++, at
# every DDI version of the spec and with none given (the kit's default),
# proves the bitfield masks by checking that clang -O2 folds
# ddi_layout_bitfield_failure() to NULL, and checks that a corrupted copy of
# the release (one field moved, two bits swapped) fails naming the field.
#   compile_asserts.sh DDIGEN CLANG WDK_DIR WORK
set -u
ddigen=$1 clang=$2 wdk=$3 work=$4
rm -rf "$work" && mkdir -p "$work"
failures=0 passed=0
fail() { echo "FAIL $*"; failures=$((failures + 1)); }
ok() { echo "ok   $*"; passed=$((passed + 1)); }

"$ddigen" layout --wdk "$wdk" -q -o "$work/spec.xml" || { echo "FAIL layout"; exit 1; }
"$ddigen" emit --spec "$work/spec.xml" -o "$work/include" || { echo "FAIL emit"; exit 1; }
"$ddigen" overlay --wdk "$wdk" -o "$work/overlay.json"
versions=$(grep -o '<version name="[A-Za-z0-9_]*"' "$work/spec.xml" | sed 's/.*name="\(.*\)"/\1/')
cat >"$work/tu.c" <<'TU'
#include <ntddk.h>
#include <dispmprt.h>
#include "ddi_layout_asserts.h"
const char *ddigen_probe_bitfields(void) { return ddi_layout_bitfield_failure(); }
TU
cp "$work/tu.c" "$work/tu.cpp"

# clang rejects the WDK's static_assert(FIELD_OFFSET(...) == n) in C (MSVC
# accepts it); the header itself is not under test here, so that one
# assertion is compiled out.
compile() { # wdk arch-triple arch-define version(or default) extra-args... [tu.cpp last]
    local root=$1 triple=$2 define=$3 version=$4 overlay=$work/overlay.json tu=$work/tu.c
    [ "$root" = "$wdk" ] || overlay=$work/overlay-bad.json
    shift 4
    local vdef=-DDXGKDDI_INTERFACE_VERSION="$version"
    [ "$version" = default ] && vdef=-DDDIGEN_KIT_DEFAULT_VERSION
    if [ "${1:-}" = c++ ]; then tu=$work/tu.cpp; shift; fi
    "$clang" -target "$triple-pc-windows-msvc" -fms-extensions -fms-compatibility \
        -fms-compatibility-version=19.38 -nostdlibinc -D"$define" -D_KERNEL_MODE \
        "$vdef" '-Dstatic_assert(...)=' -Wall -Wextra \
        -ivfsoverlay "$overlay" -I"$root/km" -I"$root/shared" -I"$root/um" \
        -I"$work/include" "$@" "$tu"
}

check_config() { # triple define version -> prints FAIL lines
    local triple=$1 define=$2 v=$3 log=$work/log-$1-$3.txt ll=$work/probe-$1-$3.ll
    if ! compile "$wdk" "$triple" "$define" "$v" -fsyntax-only >"$log" 2>&1; then
        echo "FAIL $triple $v: the asserts do not compile"; head -20 "$log"; return
    fi
    if grep -q "ddi_layout_asserts.h" "$log"; then
        echo "FAIL $triple $v: warnings in the generated header"; grep -A3 "ddi_layout_asserts.h" "$log" | head
        return
    fi
    if ! compile "$wdk" "$triple" "$define" "$v" c++ -fsyntax-only >"$log" 2>&1; then
        echo "FAIL $triple $v: the asserts do not compile as C++"; grep -B2 -A3 error "$log" | head -20; return
    fi
    if grep -q "ddi_layout_asserts.h" "$log"; then
        echo "FAIL $triple $v: warnings in the generated header (C++)"; grep -A3 "ddi_layout_asserts.h" "$log" | head
        return
    fi
    # The bitfield checks fold to a constant: NULL when every mask holds.
    compile "$wdk" "$triple" "$define" "$v" -O2 -S -emit-llvm -o "$ll" >/dev/null 2>&1
    if ! sed -n '/@ddigen_probe_bitfields/,/^}/p' "$ll" | grep -Eq 'ret (i8\*|ptr) null'; then
        echo "FAIL $triple $v: bitfield masks do not fold to NULL"
        sed -n '/@ddigen_probe_bitfields/,/^}/p' "$ll" | head -5
    fi
    rm -f "$ll"
}

archs="i686:_X86_ x86_64:_AMD64_ aarch64:_ARM64_"
configs=0
before=$failures
jobs=$(nproc 2>/dev/null || echo 2)
for a in $archs; do
    triple=${a%%:*} define=${a##*:}
    for v in $versions default; do
        configs=$((configs + 1))
        while [ "$(jobs -rp | wc -l)" -ge "$jobs" ]; do wait -n; done
        check_config "$triple" "$define" "$v" >"$work/result-$configs.txt" &
    done
done
wait
for r in "$work"/result-*.txt; do
    if [ -s "$r" ]; then cat "$r"; failures=$((failures + 1)); fi
done
[ $failures -eq "$before" ] &&
    ok "asserts compile as C and C++ and bitfield masks hold for $configs configurations (3 archs x $((configs / 3 - 1)) versions and the kit's default)"

# A corrupted copy: one field moved, two flag bits swapped.
bad="$work/corrupted"
cp -r "$wdk" "$bad"
"$ddigen" overlay --wdk "$bad" -o "$work/overlay-bad.json"
h="$bad/km/d3dkmddi.h"
if ! grep -Eq '^[[:space:]]*UINT[[:space:]]+MultipassOffset;' "$h"; then
    fail "fixture no longer declares 'UINT MultipassOffset;' in d3dkmddi.h: update this test"
fi
sed -i -E '0,/^([[:space:]]*)UINT([[:space:]]+)MultipassOffset;/s//\1UINT\2DdigenMovedHere;\n\1UINT\2MultipassOffset;/' "$h"
last=$(echo "$versions" | tail -1)
if compile "$bad" x86_64 _AMD64_ "$last" -fsyntax-only >"$work/bad.txt" 2>&1; then
    fail "a moved field was not caught"
elif grep -q 'DXGKARG_BUILDPAGINGBUFFER.MultipassOffset: offset is not' "$work/bad.txt"; then
    ok "a moved field fails the build naming DXGKARG_BUILDPAGINGBUFFER.MultipassOffset"
else
    fail "a moved field failed without naming it"; grep error "$work/bad.txt" | head -5
fi

cp "$wdk/km/d3dkmddi.h" "$h"
swizzle=$(grep -nE '^[[:space:]]*UINT[[:space:]]+Swizzle[[:space:]]*:[[:space:]]*1;' "$h" | head -1 | cut -d: -f1)
if [ -z "$swizzle" ]; then
    fail "fixture no longer declares 'UINT Swizzle : 1;': update this test"
else
    # Swap Swizzle with the next line (Unswizzle): same widths, other bits.
    sed -i "${swizzle}{h;d};$((swizzle + 1)){G}" "$h"
    compile "$bad" x86_64 _AMD64_ "$last" -O2 -S -emit-llvm -o "$work/bad.ll" >/dev/null 2>&1
    if sed -n '/@ddigen_probe_bitfields/,/^}/p' "$work/bad.ll" | grep -Eq 'ret (i8\*|ptr) null'; then
        fail "swapped bits were not caught"
    elif grep -q 'c"DXGK_TRANSFERFLAGS.Swizzle: not bits 0..0' "$work/bad.ll"; then
        ok "swapped bitfields are reported as DXGK_TRANSFERFLAGS.Swizzle"
    else
        fail "swapped bits reported without naming DXGK_TRANSFERFLAGS.Swizzle"; grep -o 'c"[A-Z_]*\.[A-Za-z]*: not bits[^"]*' "$work/bad.ll" | head -3
    fi
fi
echo "$passed passed, $failures failed"
[ $failures -eq 0 ]
