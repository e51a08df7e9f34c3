#!/usr/bin/env bash
# spec/reviewed.xml: a fixture reviewed file (tests/fixtures/reviewed) with
# add, keep, drop, correct and no-rule entries over fixture pages in the project's
# own words, merged with the 26100 fixture layout. The spec and the
# validators show the result with provenance; stale entries and sentences
# that moved, changed or vanished are lint findings; a reviewed file that
# breaks its schema is refused (exit 1, file:line, nothing written); the
# project's own spec/reviewed.xml is valid.
#   spec_reviewed.sh DDIGEN SOURCE_DIR WORK
set -u
ddigen=$1 src=$2 work=$3
fx=$src/tests/fixtures/reviewed
layout=$src/spec/snapshots/wdk-10.0.26100.0.layout.xml
rm -rf "$work" && mkdir -p "$work"
failures=0
ok() { echo "ok   $1"; }
fail() { echo "FAIL $1"; failures=$((failures + 1)); }
expect() { if grep -qF -- "$2" "$3"; then ok "$1"; else fail "$1: no '$2' in $3"; fi; }

(cd "$src/tests/fixtures" && "$ddigen" docs reviewed -q -o "$work/docs.xml") || { echo "FAIL docs"; exit 1; }
"$ddigen" spec -q --layout "$layout" --docs "$work/docs.xml" --reviewed "$fx/reviewed.xml" -o "$work/spec.xml" \
    || { echo "FAIL spec"; exit 1; }
spec=$work/spec.xml
# provenance on every merged rule; the entries' effect on the rules
n_rules=$(grep -c '<rule ref=' "$spec"); n_prov=$(grep -c '<rule ref=[^>]*provenance="\(extracted\|reviewed\)"' "$spec")
[ "$n_rules" -eq "$n_prov" ] && ok "every merged rule has a provenance ($n_rules)" || fail "$n_prov of $n_rules rules have a provenance"
expect "correct: the condition became a ref operand" \
    'ref="DXGKARG_PATCH.pAllocationList:null-when" kind="null-when" line="25" provenance="reviewed" review="correct"' "$spec"
expect "correct: Flags.Paging resolved" '<operand name="ref" value="Flags.Paging" field="Flags.Paging"/>' "$spec"
expect "drop: the rule is marked" 'ref="DXGKARG_PATCH.hDevice:null-when" kind="null-when" line="17" provenance="reviewed" review="drop"' "$spec"
expect "add: a new rule with its own ID" 'ref="DXGKARG_PATCH.pDmaBuffer:nonzero:reviewed" kind="nonzero" line="21" provenance="reviewed" review="add"' "$spec"
expect "add: a field == enumerator condition is kept as data" \
    '<when field="StandardAllocationType" field-id="1" equals="D3DKMDT_STANDARDALLOCATION_SHAREDPRIMARYSURFACE"' "$spec"
expect "keep: the extracted rule becomes reviewed, as extracted" \
    'ref="DXGKARG_PATCH.EngineOrdinal:reserved" kind="reserved" line="41" provenance="reviewed" review="keep" review-line="47"' "$spec"
expect "stale: a drop that matches nothing" 'status="stale" page="reviewed/ns-reviewed-_dxgkarg_patch.md" page-line="21" record="DXGKARG_PATCH" kind="align"' "$spec"

# the validators: checks and skips with the entries' effect
"$ddigen" emit -q --spec "$spec" --outputs validate --stats -o "$work/out" >"$work/stats.txt" 2>&1 || fail "emit"
v=$work/out/ddi_validate.c
expect "correct: checked under Flags.Paging" 'ddi_validate_report_(first, n, "DXGKARG_PATCH.pAllocationList:null-when"' "$v"
expect "correct: zero-when checked" 'ddi_validate_report_(first, n, "DXGKARG_PATCH.AllocationListSize:zero-when"' "$v"
expect "add: checked" 'ddi_validate_report_(first, n, "DXGKARG_PATCH.pDmaBuffer:nonzero:reviewed"' "$v"
# a broken reviewed rule says so in the violation (the thunks' DDIGEN_VALIDATE_ENFORCE)
if grep -F '"DXGKARG_PATCH.pDmaBuffer:nonzero:reviewed"' "$v" | grep -qF 'DDI_VIOLATION_REVIEWED'; then
    ok "add: a broken reviewed rule flags the violation"
else fail "add: no DDI_VIOLATION_REVIEWED on the reviewed check in $v"; fi
if grep -F '"DXGKARG_PATCH.hContext:null-when"' "$v" | grep -qF 'DDI_VIOLATION_REVIEWED'; then
    fail "an extracted rule flags its violation as reviewed"
else ok "an extracted rule does not flag its violation as reviewed"; fi
expect "drop: not checked, with the entry's reason" 'DXGKARG_PATCH.hDevice:null-when [null-when]: dropped by the reviewed file (line 17)' "$v"
expect "field == enumerator: checked under its condition (the enumerator's value, 1)" \
    'if ((((unsigned long long)a->StandardAllocationType == 1ull) && !((unsigned long long)(ULONG_PTR)a->pCreateSharedPrimarySurfaceData != 0))) {' "$v"
expect "stats: reviewed rules" 'validate: reviewed       4 of 6 rules checked' "$work/stats.txt"
"$ddigen" emit -q --spec "$spec" --checks -o "$work/checks-out" >"$work/checks.tsv" 2>&1 || fail "emit --checks"
expect "--checks: the condition in the operands" 'when=StandardAllocationType==D3DKMDT_STANDARDALLOCATION_SHAREDPRIMARYSURFACE' "$work/checks.tsv"

# lint: the planted findings
"$ddigen" lint "$spec" -o "$work/lint.txt" --sarif "$work/lint.sarif" 2>/dev/null
expect "lint: stale entry" 'reviewed.xml:34: warning: drop entry (align DXGKARG_PATCH.pDmaBuffer) is stale' "$work/lint.txt"
expect "lint: moved sentence (note)" 'ns-reviewed-_dxgkarg_patch.md:17: note: the sentence of the drop entry of DXGKARG_PATCH.hDevice:null-when moved from line 10 to 17 [reviewed-sentence-moved]' "$work/lint.txt"
expect "lint: changed sentence" 'ns-reviewed-_dxgkarg_patch.md:33: warning: the sentence of the no-rule entry' "$work/lint.txt"
expect "lint: changed sentence kind" '[reviewed-sentence-changed]' "$work/lint.txt"
expect "lint: vanished sentence" 'ns-reviewed-_dxgkarg_patch.md:19: warning: the sentence of the no-rule entry of reviewed/ns-reviewed-_dxgkarg_patch.md is no longer on the page [reviewed-sentence-vanished]' "$work/lint.txt"
expect "lint: unreviewed modal sentence" '33: warning: modal sentence on a reviewed page that no rule or reviewed entry covers: "The driver must patch no location before this one." [modal-unreviewed]' "$work/lint.txt"
expect "lint: SARIF has the kinds" '"ruleId": "modal-unreviewed"' "$work/lint.sarif"
if grep getstandard "$work/lint.txt" | grep -qE '\[(reviewed-|modal-unreviewed)'; then fail "findings on a clean page"; else ok "no finding on the page whose entries match"; fi

# a reviewed file that breaks its schema: exit 1, file:line, nothing written
sed 's|<reason>The same condition as pAllocationList: the Paging bit of Flags.</reason>||' "$fx/reviewed.xml" >"$work/bad.xml"
"$ddigen" spec -q --layout "$layout" --docs "$work/docs.xml" --reviewed "$work/bad.xml" -o "$work/bad-spec.xml" 2>"$work/bad.err"
rc=$?
[ $rc -eq 1 ] && ok "schema error: exit 1" || fail "schema error: exit $rc"
grep -q "^$work/bad.xml:11: error:" "$work/bad.err" && ok "schema error: file:line of the entry" || { fail "schema error message"; cat "$work/bad.err"; }
[ ! -e "$work/bad-spec.xml" ] && ok "schema error: nothing written" || fail "schema error: a spec was written"
# an unknown kind is refused too
sed 's|kind="nonzero" record="DXGKARG_PATCH"|kind="non-zero" record="DXGKARG_PATCH"|' "$fx/reviewed.xml" >"$work/kind.xml"
"$ddigen" spec -q --layout "$layout" --docs "$work/docs.xml" --reviewed "$work/kind.xml" -o "$work/kind-spec.xml" 2>"$work/kind.err"
[ $? -eq 1 ] && grep -q "kind.xml:22: error: unknown rule kind" "$work/kind.err" && [ ! -e "$work/kind-spec.xml" ] \
    && ok "unknown kind: exit 1 at its line, nothing written" || { fail "unknown kind"; cat "$work/kind.err"; }

# the project's own file is valid (its entries need the real pages to apply)
"$ddigen" spec -q --layout "$layout" --docs "$work/docs.xml" --reviewed "$src/spec/reviewed.xml" -o "$work/own.xml" \
    && ok "spec/reviewed.xml is valid" || fail "spec/reviewed.xml refused"

[ $failures -eq 0 ] && echo "all reviewed tests passed" || echo "$failures failures"
exit $((failures > 0))
