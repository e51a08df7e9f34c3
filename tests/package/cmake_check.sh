#!/usr/bin/env bash
# The CMake functions of the installed package on a driver project made
# here (the fixture kit): ddigen_check compares the folder committed in the
# SOURCE tree (a stale committed copy fails, naming the file; before, the
# relative paths were resolved in the build folder, where the build's own
# output was compared with itself and passed); ddigen_generate takes CONFIG
# and DRIVER_KIND; a callback name the DDI list gets wrong stops the
# configure step, naming the list's file and line.
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
if(DRV_BAD_LIST)
  add_library(dod STATIC drv.c)
  ddigen_generate(TARGET dod CONFIG ${CMAKE_CURRENT_SOURCE_DIR}/ddigen.yaml OUTPUTS skeleton
                  DRIVER_KIND display-only DDI_LIST ${CMAKE_CURRENT_SOURCE_DIR}/bad.list
                  PREVIOUS ${CMAKE_CURRENT_SOURCE_DIR}/ddi/spec/ddi.xml OUT_DIR dod)
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

# A name the DDI list gets wrong stops the configure step at its line.
if "$cmake" -S "$proj" -B "$work/bad-build" -DCMAKE_PREFIX_PATH="$prefix" -DDRV_BAD_LIST=ON \
    >"$work/bad.log" 2>&1; then
    fail "configure passed with a wrong name in the DDI list"
else
    # CMake wraps the message: one line again before matching.
    tr -s '\n ' '  ' <"$work/bad.log" |
        grep -q "bad.list:2: error: 'DxgkDdiNoSuchCallback' is not a callback member of KMDDOD_INITIALIZATION_DATA" &&
        ok "a wrong DDI list name: configure fails naming bad.list:2" ||
        { cat "$work/bad.log"; fail "configure failed without naming the list's line"; }
fi
echo "$passed passed, $failures failed"
[ $failures -eq 0 ]
