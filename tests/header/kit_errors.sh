#!/usr/bin/env bash
# Header errors that would change the layout are fatal: a copy of a fixture
# release with one planted fault at a time must make `ddigen layout` exit 1,
# name the file and line, and write nothing; the kit's known error (the
# FIELD_OFFSET static_assert in dispmprt.h) and errors the user lists are
# not. -v prints clang's own severity with file:line:col.
#   kit_errors.sh DDIGEN WDK_DIR WORK
set -u
ddigen=$1 wdk=$2 work=$3
rm -rf "$work" && mkdir -p "$work"
failures=0 passed=0
fail() { echo "FAIL $*"; failures=$((failures + 1)); }
ok() { echo "ok   $*"; passed=$((passed + 1)); }
keep="what the user had before"

# plant NAME SED-EXPRESSION FILE: a fresh copy of the kit with one change.
plant() {
    rm -rf "$work/kit" && cp -r "$wdk" "$work/kit"
    sed -i "$2" "$work/kit/$3"
    cmp -s "$wdk/$3" "$work/kit/$3" && { fail "$1: the plant did not change $3"; return 1; }
    return 0
}

refused() { # name, stderr pattern, extra layout args...
    local name=$1 pattern=$2
    shift 2
    printf '%s' "$keep" >"$work/out.xml"
    "$ddigen" layout --wdk "$work/kit" --arch x64 --ddi-version WDDM3_1,WDDM3_2 -q "$@" -o "$work/out.xml" \
        2>"$work/err.txt"
    local rc=$?
    if [ $rc -ne 1 ]; then fail "$name: exit $rc, wanted 1"; head -5 "$work/err.txt"
    elif ! grep -Eq -- "$pattern" "$work/err.txt"; then fail "$name: stderr does not match /$pattern/:"; head -5 "$work/err.txt"
    elif [ "$(cat "$work/out.xml")" != "$keep" ]; then fail "$name: the output file was changed"
    else ok "$name"; fi
}

accepted() { # name, extra layout args...
    local name=$1
    shift
    if "$ddigen" layout --wdk "$work/kit" --arch x64 --ddi-version WDDM3_1,WDDM3_2 -q "$@" -o "$work/ok.xml" \
        2>"$work/err.txt"; then ok "$name"; else fail "$name:"; head -5 "$work/err.txt"; fi
}

rm -rf "$work/kit" && cp -r "$wdk" "$work/kit"
accepted "the kit as it is (its dispmprt.h static_assert is a known error)"
"$ddigen" layout --wdk "$work/kit" --arch x64 --ddi-version WDDM3_2 -v -o "$work/v.xml" 2>"$work/v.txt"
grep -Eq 'dispmprt.h:[0-9]+:[0-9]+: error: static_assert expression is not an integral constant expression .*known header error' "$work/v.txt" &&
    grep -Eq 'dispmprt.h:[0-9]+:[0-9]+: warning: use of .static_assert.' "$work/v.txt" &&
    ok "-v prints clang's severity (error, warning) at file:line:col" ||
    { fail "-v output:"; grep dispmprt "$work/v.txt" | head -3; }

line=$(grep -n '^typedef struct _DXGK_SCHEDULINGHINT_CAPS' "$wdk/km/d3dkmddi.h" | cut -d: -f1)
plant "stray token" "${line}i stray_token_here" km/d3dkmddi.h &&
    refused "a stray token in d3dkmddi.h" "d3dkmddi.h:${line}:[0-9]+: error: .*allow-header-error"

plant "misspelled type" 's/^    UINT                        MaxContexts;/    UNIT                        MaxContexts;/' km/d3dkmddi.h &&
    refused "a misspelled type name in a DDI record" "d3dkmddi.h:[0-9]+:[0-9]+: error: unknown type name 'UNIT'"

printf 'typedef struct _OUTSIDE_KIT { int x; } OUTSIDE_KIT;\n' >"$work/outside.h"
plant "outside include" "0,/^#include/s||#include \"../../outside.h\"\n#include|" km/d3dkmddi.h &&
    refused "an include resolved outside the kit" "d3dkmddi.h:[0-9]+: error: includes .*outside.h, which is outside the kit"

plant "planted static_assert" '$a static_assert(sizeof(UINT) == 5, "planted");' km/d3dkmddi.h
last=$(wc -l <"$work/kit/km/d3dkmddi.h")
refused "an unknown static_assert failure" "d3dkmddi.h:${last}:[0-9]+: error: "
accepted "... listed with --allow-header-error FILE:LINE" --allow-header-error "d3dkmddi.h:$last"
printf '# known errors of this kit\nd3dkmddi.h:~static_assert(sizeof(UINT)==5\n' >"$work/known.txt"
accepted "... listed by its text in --allow-header-errors FILE" --allow-header-errors "$work/known.txt"
printf 'd3dkmddi.h:twelve\n' >"$work/bad-known.txt"
refused "a malformed known-errors list" "bad-known.txt:1: error: known header error 'd3dkmddi.h:twelve'" \
    --allow-header-errors "$work/bad-known.txt"
echo "$passed passed, $failures failed"
[ $failures -eq 0 ]
