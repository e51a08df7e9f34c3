#!/usr/bin/env bash
# A driver's DDI list checked at configure time on a real kit, without the
# parse: ddigen_generate(... DDI_LIST ...) runs `ddigen emit --list-outputs
# --wdk KIT`, which reads the callback members of the kit's initialization
# records from its headers' text (gen/header/kit_callbacks.c).
# Checks:
#  - the names it accepts are exactly those the spec of the kit accepts
#    (every DxgkDdi* and DXGKDDI_* identifier of the kit's DDI headers, for
#    both driver kinds), so it never refuses a valid name, members of later
#    DDI versions included;
#  - a project with the display-only list configures; a misspelt name stops
#    the configure step naming the list's file and line and the nearest
#    callback, with PREVIOUS (a spec of the kit) and without.
# Prints the configure time with and without the list.
#   ddi_list_realkit.sh CMAKE BUILD_DIR SOURCE_DIR KIT_DIR WORK
# Exit 77 (skipped) without the kit.
set -u
cmake=$1 build=$2 src=$3 work=$5
. "$src/tests/lib/realkit.sh"
. "$src/tests/lib/checks.sh"
realkit_or_skip "$4"
rm -rf "$work" && mkdir -p "$work"
prefix=$work/prefix proj=$work/driver
"$cmake" --install "$build" --prefix "$prefix" >"$work/install.log" 2>&1 ||
    { cat "$work/install.log"; echo "FAIL install"; exit 1; }
ddigen=$prefix/bin/ddigen

# 1. The kit's reading against the spec's, name by name: one list of every
#    candidate, and the names each refuses (one error line per name).
"$ddigen" generate --no-config --wdk "$kit" --outputs asserts -q -o "$work/gen" >"$work/gen.log" 2>&1 ||
    { cat "$work/gen.log"; echo "FAIL generate"; exit 1; }
spec=$work/gen/spec/ddi.xml
(cd "$kit" && grep -ohE '\b(DxgkDdi|DXGKDDI)[A-Za-z0-9_]*' km/dispmprt.h shared/d3dkmddi.h shared/d3dkmdt.h) |
    sort -u >"$work/candidates.list"
refused() { # SOURCE-OPTION... : the names refused, sorted
    "$ddigen" emit --no-config --list-outputs --outputs asserts --ddi-list "$work/candidates.list" "$@" 2>&1 >/dev/null |
        sed -n "s/^.*candidates.list:[0-9]*: error: '\([A-Za-z0-9_]*\)' is not a callback member.*/\1/p" | sort
}
total=$(wc -l <"$work/candidates.list")
for kind in full display-only; do
    refused --driver-kind "$kind" --wdk "$kit" >"$work/kit-$kind.txt"
    refused --driver-kind "$kind" --spec "$spec" >"$work/spec-$kind.txt"
    accepted=$((total - $(wc -l <"$work/kit-$kind.txt")))
    if cmp -s "$work/kit-$kind.txt" "$work/spec-$kind.txt" && [ "$accepted" -gt 20 ]; then
        ok "$kind: the kit's text accepts the spec's $accepted of $total names, refuses the same $((total - accepted))"
    else
        diff "$work/kit-$kind.txt" "$work/spec-$kind.txt" | head -20
        fail "$kind: the kit's text and the spec disagree (< kit refuses, > spec refuses)"
    fi
done

# 2. The driver project: configure with the good list, a misspelt one,
#    with and without PREVIOUS.
mkdir -p "$proj"
echo 'int drv_unused;' >"$proj/drv.c"
cp "$src/tests/emit/display_only.list" "$proj/good.list"
sed 's/^DxgkDdiPresentDisplayOnly$/DxgkDdiPresentDisplyOnly/' "$proj/good.list" >"$proj/bad.list"
bad_line=$(grep -n '^DxgkDdiPresentDisplyOnly$' "$proj/bad.list" | cut -d: -f1)
cat >"$proj/CMakeLists.txt" <<'EOF'
cmake_minimum_required(VERSION 3.25)
project(drv LANGUAGES C)
find_package(ddigen 0.2 REQUIRED)
add_library(dod STATIC drv.c)
set(_list "")
if(DRV_LIST)
  set(_list DDI_LIST ${CMAKE_CURRENT_SOURCE_DIR}/${DRV_LIST})
endif()
set(_previous "")
if(DRV_PREVIOUS)
  set(_previous PREVIOUS ${DRV_PREVIOUS})
endif()
ddigen_generate(TARGET dod WDK ${DRV_WDK} OUTPUTS skeleton DRIVER_KIND display-only ${_list} ${_previous} OUT_DIR ddi)
EOF
configure() { # NAME CMAKE-ARGS...: 0 when it configures; the time in $seconds
    local name=$1 start end rc
    shift
    start=$(date +%s.%N)
    "$cmake" -S "$proj" -B "$work/build-$name" -DCMAKE_PREFIX_PATH="$prefix" -DDRV_WDK="$kit" "$@" \
        >"$work/$name.log" 2>&1
    rc=$?
    end=$(date +%s.%N)
    seconds=$(awk "BEGIN { printf \"%.2f\", $end - $start }")
    return $rc
}
configure nolist && t_nolist=$seconds || { cat "$work/nolist.log"; fail "configure without a list"; }
configure good -DDRV_LIST=good.list && t_good=$seconds && ok "the display-only list configures" ||
    { cat "$work/good.log"; fail "the good list did not configure"; }
for previous in "" "$spec"; do
    with=${previous:+with PREVIOUS}
    if configure "bad${previous:+-previous}" -DDRV_LIST=bad.list -DDRV_PREVIOUS="$previous"; then
        fail "a misspelt name configured ${with:-without PREVIOUS}"
        continue
    fi
    t_bad=$seconds
    # CMake wraps the message: one line again before matching.
    tr -s '\n ' '  ' <"$work/bad${previous:+-previous}.log" |
        grep -q "bad.list:$bad_line: error: 'DxgkDdiPresentDisplyOnly' is not a callback member of KMDDOD_INITIALIZATION_DATA (in $kit/km/dispmprt.h); did you mean 'DxgkDdiPresentDisplayOnly'?" &&
        ok "a misspelt name stops configure ${with:-without PREVIOUS} at bad.list:$bad_line, with the near name (${t_bad} s)" ||
        { cat "$work/bad${previous:+-previous}.log"; fail "configure ${with:-without PREVIOUS}: not at the list's line"; }
done
echo "configure time: no list ${t_nolist:-?} s, the display-only list checked against the kit ${t_good:-?} s"
checks_done
