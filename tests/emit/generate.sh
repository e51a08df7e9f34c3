#!/usr/bin/env bash
# `ddigen generate` end to end, as the Quick start runs it: headers only,
# then with docs (spec with stable IDs, lint report); every output is there,
# valid, and the same run to run.
#   generate.sh DDIGEN WDK_DIR DOCS_DIR WORK
set -u
ddigen=$1 wdk=$2 docs=$3 work=$4
rm -rf "$work" && mkdir -p "$work"
failures=0 passed=0
ok() { echo "ok   $*"; passed=$((passed + 1)); }
fail() { echo "FAIL $*"; failures=$((failures + 1)); }

for run in a b; do
    "$ddigen" generate --wdk "$wdk" -q -o "$work/$run" || fail "generate (headers only) failed"
done
[ -s "$work/a/spec/ddi.xml" ] && [ -s "$work/a/include/ddi_layout_asserts.h" ] &&
    ok "headers only: spec and asserts written" || fail "headers only: outputs missing"
"$ddigen" validate "$work/a/spec/ddi.xml" && ok "headers only: spec is valid" || fail "headers only: invalid spec"
diff -r "$work/a" "$work/b" >/dev/null && ok "headers only: identical run to run" || fail "headers only: runs differ"

"$ddigen" generate --wdk "$wdk" --docs "$docs" -q -o "$work/d" || fail "generate --docs failed"
for f in spec/ddi.xml spec/layout.xml spec/docs.xml include/ddi_layout_asserts.h lint.txt; do
    [ -s "$work/d/$f" ] && ok "with docs: $f written" || fail "with docs: $f missing"
done
grep -q '<record name="DXGKARG_BUILDPAGINGBUFFER" id="[0-9]*"' "$work/d/spec/ddi.xml" &&
    ok "with docs: records carry stable IDs" || fail "with docs: no stable IDs"
"$ddigen" validate "$work/d/spec/ddi.xml" && ok "with docs: spec is valid" || fail "with docs: invalid spec"
echo "$passed passed, $failures failed"
[ $failures -eq 0 ]
