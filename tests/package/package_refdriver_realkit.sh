#!/usr/bin/env bash
# examples/refdriver built against a real WDK (Microsoft's include folder,
# ../shared/wdk/<release>) with an installed ddigen, the way a driver team
# would: the example copied out of ddigen's tree, -DREFDRIVER_WDK=KIT and
# nothing else. The host harness cannot be
# built on such a kit (LLP64 types, MSVC-only constructs): the example must
# say so and build the windows-msvc objects instead. Each object (driver,
# paging runtime, generated .c) of each architecture is one line; the build
# keeps going past a failure so that every object is tried.
#   package_refdriver_realkit.sh CMAKE BUILD_DIR SOURCE_DIR KIT WORK
set -u
cmake=$1 build=$2 src=$3 work=$5
. "$src/tests/lib/realkit.sh"
realkit_or_skip "$4"
rm -rf "$work" && mkdir -p "$work"
failures=0 passed=0
ok() { echo "ok   $*"; passed=$((passed + 1)); }
fail() { echo "FAIL $*"; failures=$((failures + 1)); }
prefix=$work/prefix ex=$work/refdriver

"$cmake" --install "$build" --prefix "$prefix" >"$work/install.log" 2>&1 || { cat "$work/install.log"; echo "FAIL install"; exit 1; }
# The example copied out of ddigen's tree, as a team starts from it: only
# -DREFDRIVER_WDK ties it to anything.
cp -r "$src/examples/refdriver" "$work/refdriver-src"
"$cmake" -S "$work/refdriver-src" -B "$ex" -G "Unix Makefiles" -DCMAKE_BUILD_TYPE=Debug \
    -DCMAKE_PREFIX_PATH="$prefix" -DREFDRIVER_WDK="$kit" >"$work/configure.log" 2>&1 ||
    { cat "$work/configure.log"; echo "FAIL configure"; echo "$passed passed, 1 failed"; exit 1; }
ok "configured against $kit"
grep -q "refdriver_harness is not built" "$work/configure.log" &&
    ok "the host harness is skipped, with the reason" || fail "no message about the host harness"
grep "refdriver:" "$work/configure.log" | sed 's/^/  /'
[ ! -e "$ex/refdriver_harness" ] && ! grep -q "refdriver_harness:" "$ex/Makefile" &&
    ok "no refdriver_harness target" || fail "a refdriver_harness target exists"

"$cmake" --build "$ex" -j2 -- -k >"$work/build.log" 2>&1
build_rc=$?
[ -s "$ex/ddi/spec/ddi.xml" ] && ok "ddigen generated on the kit" || fail "nothing generated"

# Every object the msvc rules know, per architecture: the driver, the paging
# runtime's sources, the generated .c files. COFF machine: 014c x86,
# 8664 x64, aa64 arm64 (little-endian bytes).
objects=$(sed -n 's|.*-o \([^ ]*/msvc-[a-z0-9_]*/[a-z0-9_]*\.obj\).*|\1|p' "$ex/CMakeFiles/refdriver_msvc_objects.dir/build.make" | sort -u)
[ -n "$objects" ] || fail "no windows-msvc objects in the build"
for o in $objects; do
    arch=$(basename "$(dirname "$o")") arch=${arch#msvc-} name=$(basename "$o")
    case $arch in i686) magic=4c01 ;; x86_64) magic=6486 ;; aarch64) magic=64aa ;; *) magic=? ;; esac
    if [ -s "$o" ] && [ "$(od -An -tx1 -N2 "$o" | tr -d ' ')" = "$magic" ]; then
        ok "$arch-pc-windows-msvc $name"
    else
        fail "$arch-pc-windows-msvc $name:"
        # Its own errors: the parallel build's log interleaves them.
        (cd "$ex" && make -f CMakeFiles/refdriver_msvc_objects.dir/build.make "${o#"$ex"/}" 2>&1) |
            grep -E "error" | sed "s|$prefix/share/ddigen/||" | head -3 | sed 's/^/    /'
    fi
done
[ $build_rc -eq 0 ] && ok "the example builds" || fail "the example's build failed (build.log: $work/build.log)"
(cd "$ex" && ctest --output-on-failure >"$work/ctest.log" 2>&1) && ok "example's ctest (ddigen_check) passes" ||
    { tail -20 "$work/ctest.log"; fail "example's ctest"; }
echo "$passed passed, $failures failed"
[ $failures -eq 0 ]
