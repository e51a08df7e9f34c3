#!/usr/bin/env bash
# The generated headers inside a driver's own translation units: the
# fixture miniport (tests/fixtures/driver: one C and one C++ source whose
# headers pull in a user-mode header that renames identifiers by macro)
# compiled for i686/x86_64/aarch64-pc-windows-msvc at the kit's default DDI
# version, without and with ddi_layout_asserts.h. Including the asserts must
# add no diagnostic. With scope=all (kernel records too) the renamed
# IO_STACK_LOCATION member breaks the build, which is why it is not the
# default; the test checks that too, so the fixture keeps exercising it.
#   driver_tu.sh DDIGEN CLANG WDK_DIR DRIVER_DIR WORK
set -u
ddigen=$1 clang=$2 wdk=$3 driver=$4 work=$5
rm -rf "$work" && mkdir -p "$work"
failures=0 passed=0
fail() { echo "FAIL $*"; failures=$((failures + 1)); }
ok() { echo "ok   $*"; passed=$((passed + 1)); }

"$ddigen" layout --wdk "$wdk" -q -o "$work/spec.xml" || { echo "FAIL layout"; exit 1; }
"$ddigen" emit --spec "$work/spec.xml" -o "$work/ddi" || { echo "FAIL emit"; exit 1; }
"$ddigen" emit --spec "$work/spec.xml" --param scope=all -o "$work/ddi-all" || { echo "FAIL emit scope=all"; exit 1; }
"$ddigen" overlay --wdk "$wdk" -o "$work/overlay.json"

compile() { # triple define source include-dir extra...
    local triple=$1 define=$2 src=$3 inc=$4
    shift 4
    local lang=c std=-std=c11
    case "$src" in *.cpp) lang=c++ std=-std=c++17 ;; esac
    "$clang" -x "$lang" "$std" -fsyntax-only -target "$triple-pc-windows-msvc" -fms-extensions \
        -fms-compatibility -fms-compatibility-version=19.38 -nostdlibinc -D"$define" -D_KERNEL_MODE \
        '-Dstatic_assert(...)=' -Wall -Wextra -Wno-unused-function -ivfsoverlay "$work/overlay.json" \
        -I"$wdk/km" -I"$wdk/shared" -I"$wdk/um" -I"$driver/include" -I"$inc" "$@" "$src"
}

# Diagnostics without file positions: the asserts may move nothing else.
diagnostics() { grep -E '(warning|error):' "$1" | sed -E 's/:[0-9]+:[0-9]+:/:/' | sort; }

for a in i686:_X86_ x86_64:_AMD64_ aarch64:_ARM64_; do
    triple=${a%%:*} define=${a##*:}
    for src in "$driver/src/paging.c" "$driver/src/adapter.cpp"; do
        name=$(basename "$src")
        compile "$triple" "$define" "$src" "$work/ddi" >"$work/plain.txt" 2>&1
        plain=$?
        compile "$triple" "$define" "$src" "$work/ddi" -DDDIGEN_LAYOUT_CHECKS >"$work/with.txt" 2>&1
        with=$?
        if [ $plain -ne 0 ]; then
            fail "$triple $name does not compile without the asserts:"; head -5 "$work/plain.txt"
        elif [ $with -ne 0 ]; then
            fail "$triple $name: ddi_layout_asserts.h breaks the driver's build:"; grep error "$work/with.txt" | head -5
        elif [ "$(diagnostics "$work/plain.txt")" != "$(diagnostics "$work/with.txt")" ]; then
            fail "$triple $name: new diagnostics with the asserts:"
            diff <(diagnostics "$work/plain.txt") <(diagnostics "$work/with.txt") | head -5
        else
            ok "$triple $name compiles with the asserts, no new diagnostic"
        fi
    done
done

# scope=all asserts IO_STACK_LOCATION.Parameters.DeviceCapabilities, which
# the driver's user-mode header has renamed.
if compile x86_64 _AMD64_ "$driver/src/paging.c" "$work/ddi-all" -DDDIGEN_LAYOUT_CHECKS >"$work/all.txt" 2>&1; then
    fail "scope=all compiled: the fixture no longer renames a kernel record's member"
elif grep -q "DeviceCapabilitiesA" "$work/all.txt"; then
    ok "scope=all asserts the kernel records, and the renamed member breaks them (hence not the default)"
else
    fail "scope=all failed for another reason:"; grep error "$work/all.txt" | head -3
fi
if grep -q "sizeof(IO_STACK_LOCATION)" "$work/ddi/ddi_layout_asserts.h"; then
    fail "default scope asserts a kernel record (IO_STACK_LOCATION)"
else
    ok "default scope asserts the DDI headers' records only"
fi
echo "$passed passed, $failures failed"
[ $failures -eq 0 ]
