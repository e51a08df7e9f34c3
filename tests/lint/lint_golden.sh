#!/usr/bin/env bash
# ddigen lint on the WDK 10.0.26100.0 fixture and the lint doc fixtures
# (tests/fixtures/lint: one planted disagreement per finding kind): text
# output equal to the golden file, exit status 1 (errors found), SARIF valid
# and consistent with the text, fingerprints stable when the pages move.
#   lint_golden.sh DDIGEN SOURCE_DIR WORK SARIF_SCHEMA   (DDIGEN_UPDATE_GOLDEN=1 rewrites)
# SARIF_SCHEMA is the official SARIF 2.1.0 JSON schema
# (scripts/fetch-sarif-schema.sh puts it in build/_deps).
set -u
ddigen=$1 src=$2 work=$3 official_schema=$4
here=$src/tests/lint
fixtures=$src/tests/fixtures/lint
golden=$here/expected.txt
mkdir -p "$work"
failures=0
layout=$src/spec/snapshots/wdk-10.0.26100.0.layout.xml
(cd "$src/tests/fixtures" && "$ddigen" docs lint -q -o "$work/docs.xml") || { echo "FAIL docs"; exit 1; }
"$ddigen" spec -q --layout "$layout" --docs "$work/docs.xml" --overrides "$fixtures/overrides.xml" \
    --reviewed "$fixtures/reviewed.xml" -o "$work/spec.xml" \
    || { echo "FAIL spec"; exit 1; }
# the overrides path is recorded as given; make it relative like the docs
sed -i "s|overrides=\"$fixtures/|overrides=\"tests/fixtures/lint/|" "$work/spec.xml"
sed -i "s|reviewed=\"$fixtures/|reviewed=\"tests/fixtures/lint/|" "$work/spec.xml"
"$ddigen" lint "$work/spec.xml" --docs-root tests/fixtures --sarif "$work/lint.sarif" -o "$work/lint.txt" 2>"$work/summary.txt"
rc=$?
[ $rc -eq 1 ] && echo "ok   exit status 1 (errors found)" || { echo "FAIL exit status $rc"; failures=$((failures + 1)); }
[ "${DDIGEN_UPDATE_GOLDEN:-}" = 1 ] && cp "$work/lint.txt" "$golden" && echo "updated $golden"
if cmp -s "$work/lint.txt" "$golden"; then echo "ok   text findings equal $golden"; else
    echo "FAIL text findings differ from $golden:"; diff "$golden" "$work/lint.txt" | head -40; failures=$((failures + 1)); fi
for kind in page-unmatched doc-field-missing doc-field-newer field-undocumented bit-mismatch bit-shared-by-version bit-conflict \
            availability-mismatch syntax-mismatch direction-in-written union-member-mismatch union-member-unmapped \
            operand-unresolved override-stale reviewed-stale reviewed-sentence-moved reviewed-sentence-changed \
            reviewed-sentence-vanished modal-unreviewed; do
    grep -q "\[$kind\]" "$work/lint.txt" && echo "ok   finding kind $kind" || { echo "FAIL no $kind finding"; failures=$((failures + 1)); }
done
# Members documented by the name the header writes before a macro renames
# them (DXGK_SCHEDHINT_RESERVED0 -> Reserved0) match their fields.
if [ "$(grep -c 'how="macro-name"' "$work/spec.xml")" -eq 2 ] && ! grep -q SCHEDHINT_RESERVED "$work/lint.txt"; then
    echo "ok   members named through a macro match their fields, no finding"
else
    echo "FAIL members named through a macro:"; grep SCHEDHINT_RESERVED "$work/lint.txt" | head -3
    failures=$((failures + 1))
fi
# A page titled with the tag (_DXGKARG_X): findings name the typedef.
if grep -q "DXGKARG_SETSCHEDULINGHINT.Deadline is documented" "$work/lint.txt" &&
    ! grep -q "_DXGKARG_SETSCHEDULINGHINT\.Deadline" "$work/lint.txt"; then
    echo "ok   findings name a record by its typedef when the page uses the tag"
else
    echo "FAIL findings name the record by the page's tag:"; grep -n "Deadline" "$work/lint.txt" | head -3
    failures=$((failures + 1))
fi
# Lint knows the pinned kit: the same pages against the previous release
# (22621, newest WDDM 3.1). BoostLevel, dated WDDM 3.2, is of a later
# release there (a note) and an error on 26100, which has WDDM 3.2 and not
# the member; QueueHint, dated WDDM 3.0, is an error on both; Deadline
# (undated, amid the kit's members) is an error on 26100, whose release
# the page documents, and a note on 22621, for which the page is a later
# release's (it dates BoostLevel after 22621); the value numbered after
# the kit's last is a note on both.
older=$src/spec/snapshots/wdk-10.0.22621.0.layout.xml
"$ddigen" lint --layout "$older" --docs "$work/docs.xml" --docs-root tests/fixtures -o "$work/older.txt" 2>/dev/null
finding() { # file severity kind text
    grep -F "$4" "$1" | grep -q ": $2: .*\[$3\]$"
}
for check in "older.txt note doc-field-newer DXGKARG_SETSCHEDULINGHINT.BoostLevel is documented but this kit has no such member: the page dates it WDDM 3.2" \
             "lint.txt error doc-field-missing DXGKARG_SETSCHEDULINGHINT.BoostLevel is documented but the header has no such member in any DDI version, though the page dates it WDDM 3.2" \
             "older.txt error doc-field-missing DXGKARG_SETSCHEDULINGHINT.QueueHint is documented but the header has no such member in any DDI version, though the page dates it WDDM 3.0" \
             "older.txt note doc-field-newer DXGKARG_SETSCHEDULINGHINT.Deadline is documented but this kit has no such member: the page documents a later release: it dates members WDDM 3.2" \
             "lint.txt error doc-field-missing DXGKARG_SETSCHEDULINGHINT.Deadline is documented but the header has no such member in any DDI version" \
             "older.txt note doc-field-newer DXGK_OPERATION_PLANTED_LATER is documented but this kit has no such value: numbered 90" \
             "lint.txt note doc-field-newer DXGK_OPERATION_PLANTED_LATER is documented but this kit has no such value: numbered 90" \
             "lint.txt error doc-field-missing DXGK_TRANSFERVIRTUALFLAGS.Flags is documented but the header has no such member"; do
    read -r file severity kind text <<<"$check"
    finding "$work/$file" "$severity" "$kind" "$text" && echo "ok   $file: $severity [$kind] $text" ||
        { echo "FAIL $file: no $severity [$kind] $text"; grep -F "$(echo "$text" | cut -d' ' -f1)" "$work/$file" | head -3; failures=$((failures + 1)); }
done
# The interpreter that has jsonschema (Debian's python3-jsonschema is for
# /usr/bin/python3; another python3 may come first on PATH).
py=python3
python3 -c 'import jsonschema' 2>/dev/null || py=/usr/bin/python3
if [ ! -s "$official_schema" ]; then
    echo "FAIL the official SARIF 2.1.0 schema is missing at $official_schema (run scripts/fetch-sarif-schema.sh)"
    failures=$((failures + 1))
fi
"$py" "$here/check_sarif.py" "$work/lint.sarif" "$official_schema" "$here/sarif-2.1.0-subset.schema.json" \
    "$work/lint.txt" || failures=$((failures + 1))
# the same findings from --layout/--docs directly, and fingerprints that do
# not depend on line numbers (a page with a blank line added)
"$ddigen" lint --layout "$layout" --docs "$work/docs.xml" --overrides "$fixtures/overrides.xml" --reviewed "$fixtures/reviewed.xml" --docs-root tests/fixtures \
    -o "$work/direct.txt" 2>/dev/null
sed "s|$fixtures/|tests/fixtures/lint/|" "$work/direct.txt" | sort | cmp -s - <(sort "$work/lint.txt") \
    && echo "ok   lint --layout --docs gives the same findings" || { echo "FAIL direct lint differs"; failures=$((failures + 1)); }
mkdir -p "$work/moved/lint"
cp "$fixtures"/*.md "$work/moved/lint/"
sed -i 's/^## -struct-fields$/\n## -struct-fields/' "$work/moved/lint/ns-lint-_dxgk_allocationinfoflags2.md"
(cd "$work/moved" && "$ddigen" docs lint -q -o "$work/docs2.xml")
"$ddigen" lint --layout "$layout" --docs "$work/docs2.xml" --overrides "$fixtures/overrides.xml" --reviewed "$fixtures/reviewed.xml" --sarif "$work/moved.sarif" \
    -o /dev/null 2>/dev/null
python3 - "$work/lint.sarif" "$work/moved.sarif" <<'PY' || failures=$((failures + 1))
import json, sys
a, b = (json.load(open(p)) for p in sys.argv[1:3])
fa = sorted(r['partialFingerprints']['ddigenFinding/v1'] for r in a['runs'][0]['results'])
fb = sorted(r['partialFingerprints']['ddigenFinding/v1'] for r in b['runs'][0]['results'])
la = [r['locations'][0]['physicalLocation'].get('region') for r in a['runs'][0]['results']]
lb = [r['locations'][0]['physicalLocation'].get('region') for r in b['runs'][0]['results']]
ok = fa == fb and la != lb
print(('ok   ' if ok else 'FAIL ') + 'fingerprints unchanged when a page moves down a line')
sys.exit(0 if ok else 1)
PY
echo "$failures failed"
[ $failures -eq 0 ]
