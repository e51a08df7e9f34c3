#!/usr/bin/env bash
# Layout spec of a fixture release: equal to the checked-in snapshot, and
# byte-identical whether parsed with the PCH prefix on every core or from
# scratch on one thread, and run to run.
#   spec_fixture.sh DDIGEN WDK_DIR SNAPSHOT WORK
# With DDIGEN_UPDATE_GOLDEN=1 the snapshot is rewritten (review the diff).
set -u
ddigen=$1 wdk=$2 snapshot=$3 work=$4
mkdir -p "$work"
failures=0 passed=0
"$ddigen" layout --wdk "$wdk" -q -o "$work/spec.xml" || { echo "FAIL layout"; exit 1; }
"$ddigen" overlay --wdk "$wdk" -o "$work/overlay.json" || { echo "FAIL overlay"; exit 1; }
"$ddigen" layout --wdk "$wdk" -q -o "$work/again.xml"
"$ddigen" layout --wdk "$wdk" -q --no-pch -j 1 -o "$work/nopch.xml"
for other in again nopch; do
    if cmp -s "$work/spec.xml" "$work/$other.xml"; then
        echo "ok   identical bytes ($other)"; passed=$((passed + 1))
    else
        echo "FAIL $other run differs:"; diff "$work/spec.xml" "$work/$other.xml" | head -20
        failures=$((failures + 1))
    fi
done
if [ "${DDIGEN_UPDATE_GOLDEN:-}" = 1 ]; then
    cp "$work/spec.xml" "$snapshot"; echo "updated $snapshot"
fi
if cmp -s "$work/spec.xml" "$snapshot"; then
    echo "ok   equal to $snapshot"; passed=$((passed + 1))
else
    echo "FAIL differs from the snapshot $snapshot (DDIGEN_UPDATE_GOLDEN=1 rewrites it):"
    diff "$snapshot" "$work/spec.xml" | head -30; failures=$((failures + 1))
fi
echo "$passed passed, $failures failed"
[ $failures -eq 0 ]
