#!/usr/bin/env bash
# The seeds (../shared/seeds) merged with the WDK 10.0.26100.0 fixture: every
# seed member matched, the seed-004 descriptions matched to the right
# members, the seed-002 bit claims checked against the header (CreateInVpr /
# Reserved00 by version), the DXGK_BUILDPAGINGBUFFER_OPERATION -> union member
# map complete for ops 0-22, operands resolved to field paths; deterministic
# and canonical output.
#   spec_seeds.sh DDIGEN SOURCE_DIR WORK
set -u
ddigen=$1 src=$2 work=$3
seeds=$src/../shared/seeds
if [ ! -d "$seeds" ]; then
    echo "SKIPPED: $seeds not found (the seed documents live beside the checkout)"; exit 0
fi
mkdir -p "$work"
layout=$src/spec/snapshots/wdk-10.0.26100.0.layout.xml
"$ddigen" docs "$seeds" -q -o "$work/seeds.docs.xml" || { echo "FAIL docs"; exit 1; }
"$ddigen" spec -q --layout "$layout" --docs "$work/seeds.docs.xml" --overrides "$src/spec/overrides.xml" \
    -o "$work/spec.xml" || { echo "FAIL spec"; exit 1; }
"$ddigen" spec -q --layout "$layout" --docs "$work/seeds.docs.xml" --overrides "$src/spec/overrides.xml" \
    -o "$work/again.xml"
failures=0
if cmp -s "$work/spec.xml" "$work/again.xml"; then echo "ok   deterministic"; else echo "FAIL two runs differ"; failures=1; fi
"$ddigen" validate "$work/spec.xml" || { echo "FAIL schema"; failures=1; }
"$ddigen" lint "$work/spec.xml" -o "$work/lint.txt" 2>/dev/null
python3 "$(dirname "$0")/check_seeds.py" "$work/spec.xml" "$work/lint.txt" || failures=1
[ $failures -eq 0 ]
