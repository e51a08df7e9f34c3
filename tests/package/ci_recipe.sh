#!/usr/bin/env bash
# docs/ci.md's shell steps (scripts/ci-driver-check.sh) on a driver repository
# made here: ddigen built from the source tree as from a release, nothing
# committed yet -> stale (exit 3); the generated code committed -> current
# (exit 0) with SARIF written; the pinned WDK changed -> stale, naming the file.
#   ci_recipe.sh SOURCE_DIR WORK [SARIF_SCHEMA]
set -u
src=$1 work=$2 schema=${3:-}
rm -rf "$work" && mkdir -p "$work"
failures=0 passed=0
ok() { echo "ok   $*"; passed=$((passed + 1)); }
fail() { echo "FAIL $*"; failures=$((failures + 1)); }
check=$src/scripts/ci-driver-check.sh
wdk=$work/wdk driver=$work/driver
cp -r "$src/tests/fixtures/wdk/10.0.26100.0" "$wdk"
mkdir -p "$driver/ddi/include"
command -v ccache >/dev/null && export DDIGEN_CMAKE_ARGS="-DCMAKE_C_COMPILER_LAUNCHER=ccache"

# Nothing committed yet: stale, and the missing file is named.
"$check" --ddigen-source "$src" --wdk "$wdk" --docs "$src/tests/fixtures/docs" --committed "$driver/ddi" \
    --work "$work/run1" >"$work/run1.log" 2>&1
rc=$?
[ $rc -eq 3 ] && grep -q "include/ddi_layout_asserts.h: error: stale" "$work/run1.log" &&
    ok "built ddigen from source; nothing committed: exit 3 naming ddi_layout_asserts.h" ||
    { cat "$work/run1.log"; fail "first run: exit $rc"; }
[ -x "$work/run1/ddigen/bin/ddigen" ] && ok "ddigen installed into the work folder" || fail "no installed ddigen"
prefix=$work/run1/ddigen

# The driver commits what ddigen generated: current.
cp -r "$work/run1/generated/spec" "$work/run1/generated/include" "$driver/ddi/"
"$check" --ddigen-prefix "$prefix" --wdk "$wdk" --docs "$src/tests/fixtures/docs" --committed "$driver/ddi" \
    --work "$work/run2" >"$work/run2.log" 2>&1
rc=$?
[ $rc -eq 0 ] && grep -q "committed generated code is current" "$work/run2.log" && ok "committed code current: exit 0" ||
    { cat "$work/run2.log"; fail "second run: exit $rc"; }
sarif=$work/run2/ddigen.sarif
python3 - "$sarif" "$schema" <<'PY' && ok "SARIF 2.1.0 written for upload" || fail "SARIF missing or invalid"
import json, os, sys
log = json.load(open(sys.argv[1], encoding='utf-8'))
assert log['version'] == '2.1.0' and log['runs'][0]['tool']['driver']['name'] == 'ddigen'
if sys.argv[2] and os.path.exists(sys.argv[2]):
    import jsonschema
    jsonschema.validate(log, json.load(open(sys.argv[2], encoding='utf-8')))
    print('SARIF valid against', sys.argv[2])
PY

# The pinned kit moves a field: the committed asserts are stale.
sed -i 's/^\(    UINT  *DmaSize;\)$/\1\n    UINT                                DdigenCiExtra;/' "$wdk/km/d3dkmddi.h"
grep -q DdigenCiExtra "$wdk/km/d3dkmddi.h" || fail "could not edit the copied kit"
"$check" --ddigen-prefix "$prefix" --wdk "$wdk" --docs "$src/tests/fixtures/docs" --committed "$driver/ddi" \
    --work "$work/run3" >"$work/run3.log" 2>&1
rc=$?
[ $rc -eq 3 ] && grep -q "$driver/ddi/include/ddi_layout_asserts.h: error: stale: differs" "$work/run3.log" &&
    ok "a changed WDK header: exit 3 naming the stale file" || { cat "$work/run3.log"; fail "third run: exit $rc"; }
# The command it prints is the one that makes the committed code current:
# the same kit, families and pages, the committed spec's stable IDs.
regen=$(grep -A1 'regenerate with' "$work/run3.log" | tail -1 | sed 's/^ *ddigen //')
case "$regen" in
*"--docs $src/tests/fixtures/docs"*"--outputs asserts --previous $driver/ddi/spec/ddi.xml -o $driver/ddi"*)
    ok "the regeneration command has --docs and --previous" ;;
*) cat "$work/run3.log"; fail "regeneration command: $regen" ;;
esac
eval "\"$prefix/bin/ddigen\" $regen" >"$work/regen.log" 2>&1 || { cat "$work/regen.log"; fail "the printed command failed"; }
"$check" --ddigen-prefix "$prefix" --wdk "$wdk" --docs "$src/tests/fixtures/docs" --committed "$driver/ddi" \
    --work "$work/run3b" >"$work/run3b.log" 2>&1 && ok "after the printed command: exit 0" ||
    { cat "$work/run3b.log"; fail "still stale after the printed command"; }

# A broken input is a failure, not a stale result.
"$check" --ddigen-prefix "$prefix" --wdk "$work/no-such-kit" --committed "$driver/ddi" --work "$work/run4" \
    >"$work/run4.log" 2>&1
rc=$?
[ $rc -eq 1 ] && ok "a missing WDK: exit 1" || fail "missing WDK: exit $rc"
echo "$passed passed, $failures failed"
[ $failures -eq 0 ]
