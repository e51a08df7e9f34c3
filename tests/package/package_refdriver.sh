#!/usr/bin/env bash
# Installs ddigen into WORK/prefix and builds examples/refdriver against it
# with GENERATOR, the way a driver team would; then proves the rebuild rules:
# nothing to do after a build, an unrelated file touched -> no regeneration,
# a WDK header the parse opened touched or replaced -> regeneration, and
# ddigen_check fails naming a generated file someone edited.
#   package_refdriver.sh CMAKE BUILD_DIR SOURCE_DIR GENERATOR WORK
set -u
cmake=$1 build=$2 src=$3 gen=$4 work=$5
rm -rf "$work" && mkdir -p "$work"
failures=0 passed=0
ok() { echo "ok   $*"; passed=$((passed + 1)); }
fail() { echo "FAIL $*"; failures=$((failures + 1)); }
prefix=$work/prefix ex=$work/refdriver wdk=$work/wdk

# --- install --------------------------------------------------------------
"$cmake" --install "$build" --prefix "$prefix" >"$work/install.log" 2>&1 || { cat "$work/install.log"; echo "FAIL install"; exit 1; }
(cd "$prefix" && find . -type f | sort) >"$work/install-tree.txt"
echo "install tree:"; sed 's/^/  /' "$work/install-tree.txt"
for f in bin/ddigen share/ddigen/templates/ddi_layout_asserts.h.xsl share/ddigen/schemas/ddi.rng \
         share/ddigen/runtime/include/ddi_paging.h share/ddigen/runtime/include/ddi_violation.h \
         share/ddigen/runtime/src/pb_engine.c share/ddigen/runtime/src/rpb_backend.c share/ddigen/runtime/sim/pbsim.c \
         lib/cmake/ddigen/ddigenConfig.cmake lib/cmake/ddigen/ddigenConfigVersion.cmake lib/cmake/ddigen/ddigenGenerate.cmake; do
    grep -qx "./$f" "$work/install-tree.txt" || fail "not installed: $f"
done
! grep -q '\.a$\|\.so$' "$work/install-tree.txt" && ok "installed: program, templates, schemas, runtime sources, CMake package (no host library)" ||
    fail "a host library was installed"
"$prefix/bin/ddigen" --version | grep -qx "ddigen 0.2.0" && ok "installed ddigen --version" || fail "installed --version"
# Relocatable: the tree moved elsewhere still finds its templates.
cp -a "$prefix" "$work/moved"
"$work/moved/bin/ddigen" emit --list-outputs | grep -qx ddi_layout_asserts.h && ok "a moved install finds its templates" ||
    fail "a moved install does not find its templates"
rm -rf "$work/moved"
! grep -qF "$src/templates" "$prefix/bin/ddigen" && ok "no source-tree templates path in the installed binary" ||
    fail "the installed binary holds $src/templates"

# --- find_package versions ------------------------------------------------
for req in "0.2:0" "0.2.0:0" "0.1:1" "0.3:1" "1.0:1"; do
    v=${req%%:*} want=${req##*:}
    mkdir -p "$work/fp-$v"
    printf 'cmake_minimum_required(VERSION 3.25)\nproject(fp NONE)\nfind_package(ddigen %s REQUIRED)\n' "$v" >"$work/fp-$v/CMakeLists.txt"
    "$cmake" -S "$work/fp-$v" -B "$work/fp-$v/b" -DCMAKE_PREFIX_PATH="$prefix" >/dev/null 2>&1
    got=$(( $? != 0 ))
    [ "$got" = "$want" ] && ok "find_package(ddigen $v) $([ "$want" = 0 ] && echo found || echo refused)" ||
        fail "find_package(ddigen $v): exit $got, expected $want"
done

# --- the example, against a private copy of the fixture WDK ----------------
cp -r "$src/tests/fixtures/wdk/10.0.26100.0" "$wdk"
"$cmake" -S "$src/examples/refdriver" -B "$ex" -G "$gen" -DCMAKE_BUILD_TYPE=Debug -DCMAKE_PREFIX_PATH="$prefix" \
    -DREFDRIVER_WDK="$wdk" >"$work/configure.log" 2>&1 || { cat "$work/configure.log"; echo "FAIL configure"; exit 1; }
ok "example configured with $gen against the installed package"
build_log() { "$cmake" --build "$ex" >"$work/$1.log" 2>&1 || { cat "$work/$1.log"; fail "$1: build failed"; }; }
regenerated() { grep -c "ddigen: generating" "$work/$1.log"; }
asserts=$ex/ddi/include/ddi_layout_asserts.h

build_log build1
echo "example build log (first build):"; grep -E "ddigen: generating|refdriver: .*-pc-windows-msvc|Linking|Built target" "$work/build1.log" | sed 's/^/  /'
[ "$(regenerated build1)" = 1 ] && ok "first build generates once" || fail "first build: ddigen ran $(regenerated build1) times"
[ -s "$asserts" ] && [ -s "$ex/ddi/ddigen.d" ] && ok "generated header and depfile in the build tree" || fail "no generated files"
"$ex/refdriver_harness" >"$work/harness.txt" 2>&1 && grep -q "all operations match the oracle" "$work/harness.txt" &&
    ok "harness: the driver's DMA buffers, run on the simulator, match the oracle" || { cat "$work/harness.txt"; fail "harness failed"; }
sed 's/^/  /' "$work/harness.txt"
# COFF machine field: 0x8664 x64, 0xAA64 arm64 (little-endian bytes).
for pair in x86_64:6486 aarch64:64aa; do
    arch=${pair%%:*} magic=${pair##*:} nobj=0
    for o in "$ex/msvc-$arch"/*.obj; do
        [ "$(od -An -tx1 -N2 "$o" | tr -d ' ')" = "$magic" ] && nobj=$((nobj + 1)) || fail "$o is not a $arch COFF object"
    done
    [ "$nobj" -ge 7 ] && ok "$nobj $arch-pc-windows-msvc COFF objects (driver + runtime)" || fail "only $nobj $arch objects"
done
(cd "$ex" && ctest --output-on-failure >"$work/ctest1.log" 2>&1) && ok "example's ctest (harness, ddigen_check) passes" ||
    { cat "$work/ctest1.log"; fail "example's ctest"; }

# --- what reruns ddigen ---------------------------------------------------
build_log build2
[ "$(regenerated build2)" = 0 ] && ok "second build: no regeneration" || fail "second build regenerated"
before=$(stat -c %Y.%y "$asserts")
sleep 1.1 # mtime granularity of some file systems
touch "$wdk/um/d3dkmthk.h"
echo "/* not included by anything */" >"$wdk/km/unrelated.h"
build_log unrelated
[ "$(regenerated unrelated)" = 0 ] && [ "$(stat -c %Y.%y "$asserts")" = "$before" ] &&
    ok "um/d3dkmthk.h (never opened) touched, km/unrelated.h added: no regeneration, generated header untouched" ||
    fail "an unrelated header reran ddigen"
touch "$wdk/km/d3dkmddi.h"
build_log touched
# Same content: ddigen leaves the generated header as it was (its mtime
# too), so nothing that includes it recompiles. Ninja keeps that (CMake's
# custom commands restat); CMake's Makefiles touch every extra output of a
# custom command after it runs, so there the mtime moves anyway.
if [ "$gen" = Ninja ]; then
    [ "$(regenerated touched)" = 1 ] && [ "$(stat -c %Y.%y "$asserts")" = "$before" ] &&
        ok "km/d3dkmddi.h touched: ddigen reran, the unchanged generated header kept its mtime" ||
        fail "touching d3dkmddi.h: regenerated $(regenerated touched) times, header mtime $( [ "$(stat -c %Y.%y "$asserts")" = "$before" ] && echo kept || echo changed)"
else
    [ "$(regenerated touched)" = 1 ] && ok "km/d3dkmddi.h touched: ddigen reran" || fail "touching d3dkmddi.h did not regenerate"
fi
grep -E "ddigen: generating" "$work/touched.log" | sed 's/^/  after touch: /'
build_log after
[ "$(regenerated after)" = 0 ] && ok "and the build after that does nothing again" || fail "regenerated twice"
# Replaced (a new kit dropped in): a new file with another inode and content.
sed 's/^\(#define DXGKDDI_INTERFACE_VERSION_WDDM3_1 .*\)$/\1\n\/* replaced *\//' "$wdk/shared/d3dukmdt.h" >"$work/d3dukmdt.h.new"
sleep 1.1
mv "$work/d3dukmdt.h.new" "$wdk/shared/d3dukmdt.h"
build_log replaced
[ "$(regenerated replaced)" = 1 ] && ok "shared/d3dukmdt.h replaced: ddigen reran" || fail "replacing a header did not regenerate"

# --- ddigen_check ------------------------------------------------------------
echo "/* edited by hand */" >>"$asserts"
(cd "$ex" && ctest -R refdriver_generated_current --output-on-failure >"$work/check.log" 2>&1)
rc=$?
[ $rc -ne 0 ] && grep -q "ddi_layout_asserts.h: error: stale" "$work/check.log" &&
    ok "ddigen_check fails naming the edited file" || { cat "$work/check.log"; fail "ddigen_check did not catch the edit"; }
"$cmake" --build "$ex" --target refdriver_generated_current >"$work/check-target.log" 2>&1 &&
    fail "the check target passed on a stale file" || ok "the ddigen_check target fails too"

echo "$passed passed, $failures failed"
[ $failures -eq 0 ]
