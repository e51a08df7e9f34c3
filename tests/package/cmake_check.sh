#!/usr/bin/env bash
# The CMake functions of the installed package on a driver project made
# here (the fixture kit): ddigen_check compares the folder committed in the
# SOURCE tree (a stale committed copy fails, naming the file; before, the
# relative paths were resolved in the build folder, where the build's own
# output was compared with itself and passed); ddigen_generate takes CONFIG
# and DRIVER_KIND; a callback name the DDI list gets wrong stops the
# configure step, naming the list's file and line (checked against the
# kit's headers without PREVIOUS, with a near name when there is one).
#   cmake_check.sh CMAKE BUILD_DIR SOURCE_DIR WORK
set -u
cmake=$1 build=$2 src=$3 work=$4
rm -rf "$work" && mkdir -p "$work"
failures=0 passed=0
ok() { echo "ok   $*"; passed=$((passed + 1)); }
fail() { echo "FAIL $*"; failures=$((failures + 1)); }
prefix=$work/prefix proj=$work/driver bin=$work/driver-build
"$cmake" --install "$build" --prefix "$prefix" >"$work/install.log" 2>&1 ||
    { cat "$work/install.log"; echo "FAIL install"; exit 1; }
[ -x "$prefix/bin/ddigen-ci" ] && ok "the CI recipe is installed as bin/ddigen-ci" || fail "no bin/ddigen-ci"

mkdir -p "$proj/ddi"
cat >"$proj/ddigen.yaml" <<EOF
wdk: $src/tests/fixtures/wdk/10.0.26100.0
outputs: asserts
EOF
echo 'int drv_unused;' >"$proj/drv.c"
printf 'DxgkDdiAddDevice\nDxgkDdiNoSuchCallback\n' >"$proj/bad.list"
cat >"$proj/CMakeLists.txt" <<'EOF'
cmake_minimum_required(VERSION 3.25)
project(drv LANGUAGES C)
find_package(ddigen 0.2 REQUIRED)
enable_testing()
add_library(drv STATIC drv.c)
ddigen_generate(TARGET drv CONFIG ${CMAKE_CURRENT_SOURCE_DIR}/ddigen.yaml OUT_DIR ddi)
# What issue 28 found: relative paths, the same as ddigen_generate's OUT_DIR.
ddigen_check(NAME committed_current SPEC ddi/spec/ddi.xml DIR ddi/include)
# A display-only skeleton from DRV_LIST: the kit from the config, or WDK
# (DRV_WDK); PREVIOUS with DRV_PREVIOUS.
if(DRV_LIST)
  add_library(dod STATIC drv.c)
  set(_kit CONFIG ${CMAKE_CURRENT_SOURCE_DIR}/ddigen.yaml)
  if(DRV_WDK)
    set(_kit WDK ${DRV_WDK})
  endif()
  set(_previous "")
  if(DRV_PREVIOUS)
    set(_previous PREVIOUS ${CMAKE_CURRENT_SOURCE_DIR}/ddi/spec/ddi.xml)
  endif()
  ddigen_generate(TARGET dod ${_kit} OUTPUTS skeleton DRIVER_KIND display-only
                  DDI_LIST ${CMAKE_CURRENT_SOURCE_DIR}/${DRV_LIST} ${_previous} OUT_DIR dod)
endif()
EOF

# Build once; commit what it generated into the source tree, then make the
# committed copy stale by hand.
"$cmake" -S "$proj" -B "$bin" -DCMAKE_PREFIX_PATH="$prefix" >"$work/configure.log" 2>&1 &&
    "$cmake" --build "$bin" >"$work/build.log" 2>&1 || { cat "$work/configure.log" "$work/build.log"; fail "build"; }
cp -r "$bin/ddi/spec" "$bin/ddi/include" "$proj/ddi/"
(cd "$bin" && ctest -R committed_current --output-on-failure >"$work/current.log" 2>&1) &&
    ok "committed copy current: ddigen_check passes" || { cat "$work/current.log"; fail "current copy refused"; }
echo '/* edited */' >>"$proj/ddi/include/ddi_layout_asserts.h"
if (cd "$bin" && ctest -R committed_current --output-on-failure >"$work/stale.log" 2>&1); then
    fail "a stale committed copy in the source tree passed ddigen_check"
else
    grep -q "$proj/ddi/include/ddi_layout_asserts.h: error: stale: differs" "$work/stale.log" &&
        ok "a stale committed copy fails, naming the source tree's file" || { cat "$work/stale.log"; fail "stale: no name"; }
fi
rm "$proj/ddi/include/ddi_layout_asserts.h"
(cd "$bin" && ctest -R committed_current --output-on-failure >"$work/missing.log" 2>&1)
grep -q "ddi_layout_asserts.h: error: stale: missing" "$work/missing.log" &&
    ok "a missing committed file is named 'missing'" || { cat "$work/missing.log"; fail "missing: not said"; }

# A name the DDI list gets wrong stops the configure step at its line:
# with PREVIOUS, and without it (the names read from the kit's headers,
# whether the config or WDK names the kit); a near name is offered.
cp "$src/tests/emit/display_only.list" "$proj/good.list"
printf 'DxgkDdiAddDevice\n# a comment\nDxgkDdiPresentDisplyOnly\n' >"$proj/typo.list"
kit=$src/tests/fixtures/wdk/10.0.26100.0
expect_refused() { # NAME WANT CMAKE-ARGS...: configure fails with WANT in its output
    local name=$1 want=$2
    shift 2
    if "$cmake" -S "$proj" -B "$work/$name-build" -DCMAKE_PREFIX_PATH="$prefix" "$@" >"$work/$name.log" 2>&1; then
        fail "$name: configure passed with a wrong name in the DDI list"
        return
    fi
    # CMake wraps the message: one line again before matching.
    tr -s '\n ' '  ' <"$work/$name.log" | grep -qF "$want" && ok "$name: configure fails: $want" ||
        { cat "$work/$name.log"; fail "$name: configure failed without '$want'"; }
}
no_member="bad.list:2: error: 'DxgkDdiNoSuchCallback' is not a callback member of KMDDOD_INITIALIZATION_DATA"
expect_refused previous "$no_member" -DDRV_LIST=bad.list -DDRV_PREVIOUS=ON
expect_refused config-kit "$no_member (in $kit/km/dispmprt.h)" -DDRV_LIST=bad.list
expect_refused wdk "$no_member (in $kit/km/dispmprt.h)" -DDRV_LIST=bad.list -DDRV_WDK="$kit"
expect_refused typo "typo.list:3: error: 'DxgkDdiPresentDisplyOnly' is not a callback member of \
KMDDOD_INITIALIZATION_DATA (in $kit/km/dispmprt.h); did you mean 'DxgkDdiPresentDisplayOnly'?" -DDRV_LIST=typo.list
for how in "" "-DDRV_PREVIOUS=ON"; do
    "$cmake" -S "$proj" -B "$work/good-build" -DCMAKE_PREFIX_PATH="$prefix" -DDRV_LIST=good.list $how \
        >"$work/good.log" 2>&1 && ok "the display-only list configures ${how:-without PREVIOUS}" ||
        { cat "$work/good.log"; fail "the good list refused ${how:-without PREVIOUS}"; }
    rm -rf "$work/good-build"
done
# The spec alone (no kit known): the names checked against it.
"$prefix/bin/ddigen" emit --no-config --list-outputs --outputs skeleton --driver-kind display-only \
    --spec "$proj/ddi/spec/ddi.xml" --ddi-list "$proj/typo.list" >/dev/null 2>"$work/spec-only.log"
[ $? -eq 1 ] && grep -qF "typo.list:3: error: 'DxgkDdiPresentDisplyOnly' is not a callback member of \
KMDDOD_INITIALIZATION_DATA (in $proj/ddi/spec/ddi.xml); did you mean 'DxgkDdiPresentDisplayOnly'?" "$work/spec-only.log" &&
    ok "against a spec alone: exit 1 at typo.list:3, with the near name" || { cat "$work/spec-only.log"; fail "spec alone"; }
echo "$passed passed, $failures failed"
[ $failures -eq 0 ]
