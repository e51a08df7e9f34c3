#!/usr/bin/env bash
# Older kits keep d3dkmddi.h in shared/ rather than km/. A copy of a fixture
# release with the file moved must give the same layout spec byte for byte
# (file names are relative to the include folder that holds them), and the
# build's kit lookup (cmake/DdigenWdk.cmake, used by the runtime) and the
# paging runtime's sources must find it there too.
#   kit_shared_ddi.sh DDIGEN CMAKE CLANG WDK_DIR SOURCE_DIR WORK
set -u
ddigen=$1 cmake=$2 clang=$3 wdk=$4 src=$5 work=$6
rm -rf "$work" && mkdir -p "$work"
failures=0 passed=0
fail() { echo "FAIL $*"; failures=$((failures + 1)); }
ok() { echo "ok   $*"; passed=$((passed + 1)); }

cp -r "$wdk" "$work/kit"
mv "$work/kit/km/d3dkmddi.h" "$work/kit/shared/d3dkmddi.h"
for kit in "$wdk" "$work/kit"; do
    name=$(basename "$kit")
    "$ddigen" layout --wdk "$kit" --arch x64,arm64 --ddi-version WDDM2_0,WDDM3_1 -q -o "$work/$name.xml" ||
        fail "layout of $kit"
done
cmp -s "$work/$(basename "$wdk").xml" "$work/kit.xml" &&
    ok "d3dkmddi.h in shared/: the same layout spec" || { fail "the spec differs:"; diff "$work/$(basename "$wdk").xml" "$work/kit.xml" | head; }

found=$("$cmake" -DDDIGEN_WDK_ROOT="$work/kit" -DDDIGEN_WDK_HEADER=d3dkmddi.h -P "$src/cmake/DdigenWdk.cmake" 2>&1)
[ "$found" = "$work/kit/shared/d3dkmddi.h" ] && ok "the build's kit lookup finds shared/d3dkmddi.h" ||
    fail "kit lookup gave '$found'"

"$ddigen" overlay --wdk "$work/kit" -o "$work/overlay.json"
# The runtime dispatches through the table generated from the kit's own spec.
mkdir -p "$work/templates/lib"
cp "$src"/templates/ddi_dispatch.*.xsl "$work/templates/" && cp "$src"/templates/lib/*.xsl "$work/templates/lib/"
"$ddigen" generate -q --wdk "$work/kit" --overrides "$src/spec/overrides.xml" --templates "$work/templates" \
    -o "$work/gen" || fail "the dispatch table for the kit"
if "$clang" -fsyntax-only -target x86_64-pc-windows-msvc -fms-extensions -fms-compatibility \
    -fms-compatibility-version=19.38 -ffreestanding -D_KERNEL_MODE -D_AMD64_ -ivfsoverlay "$work/overlay.json" \
    -I"$work/kit/km" -I"$work/kit/shared" -I"$work/kit/um" -I"$src/runtime/include" -I"$work/gen/include" "$src"/runtime/src/*.c "$work/gen/include/ddi_dispatch.c" \
    >"$work/runtime.txt" 2>&1; then
    ok "the paging runtime compiles against the kit with shared/d3dkmddi.h"
else
    fail "the runtime does not compile against it:"; grep error "$work/runtime.txt" | head -5
fi
echo "$passed passed, $failures failed"
[ $failures -eq 0 ]
