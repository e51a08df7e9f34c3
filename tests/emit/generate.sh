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
all=1
for f in ddi_dispatch.h ddi_dispatch.c ddi_skeleton.h ddi_skeleton.c ddi_skeleton_driver.h; do
    [ -s "$work/a/include/$f" ] || { all=0; echo "  missing include/$f"; }
done
[ $all = 1 ] && grep -q '^DXGKDDI_BUILDPAGINGBUFFER DdiBuildPagingBuffer;' "$work/a/include/ddi_skeleton.h" &&
    grep -q 'ddi_DXGKARG_BUILDPAGINGBUFFER_Operation_table\[' "$work/a/include/ddi_dispatch.c" &&
    ok "headers only: dispatch tables and skeleton written beside the asserts" ||
    fail "headers only: dispatch or skeleton missing"
"$ddigen" validate "$work/a/spec/ddi.xml" && ok "headers only: spec is valid" || fail "headers only: invalid spec"
diff -r "$work/a" "$work/b" >/dev/null && ok "headers only: identical run to run" || fail "headers only: runs differ"

"$ddigen" generate --wdk "$wdk" --docs "$docs" -q -o "$work/d" || fail "generate --docs failed"
for f in spec/ddi.xml spec/layout.xml spec/docs.xml include/ddi_layout_asserts.h lint.txt; do
    [ -s "$work/d/$f" ] && ok "with docs: $f written" || fail "with docs: $f missing"
done
grep -q '<record name="DXGKARG_BUILDPAGINGBUFFER" id="[0-9]*"' "$work/d/spec/ddi.xml" &&
    ok "with docs: records carry stable IDs" || fail "with docs: no stable IDs"
"$ddigen" validate "$work/d/spec/ddi.xml" && ok "with docs: spec is valid" || fail "with docs: invalid spec"
grep -q '<record name="DXGKARG_BUILDPAGINGBUFFER" id="[0-9]*"' "$work/a/spec/ddi.xml" &&
    ok "headers only: records carry stable IDs too" || fail "headers only: no stable IDs"

# --previous without --docs keeps the IDs (it used to be ignored): the
# previous spec with one record's ID moved far away keeps that ID.
sed 's/<record name="DXGKARG_BUILDPAGINGBUFFER" id="[0-9]*"/<record name="DXGKARG_BUILDPAGINGBUFFER" id="9000"/' \
    "$work/a/spec/ddi.xml" >"$work/previous.xml"
"$ddigen" generate --wdk "$wdk" --previous "$work/previous.xml" -q -o "$work/p" &&
    grep -q '<record name="DXGKARG_BUILDPAGINGBUFFER" id="9000"' "$work/p/spec/ddi.xml" &&
    ok "--previous without --docs keeps stable IDs" || fail "--previous without --docs: IDs not kept"

# lint errors fail the run only with --werror (the fixture pages of
# tests/fixtures/lint have planted errors).
lintdocs=$(dirname "$docs")/lint
"$ddigen" generate --wdk "$wdk" --docs "$lintdocs" -q -o "$work/l" 2>/dev/null &&
    ok "lint errors: exit 0 by default" || fail "lint errors: nonzero exit without --werror"
"$ddigen" generate --wdk "$wdk" --docs "$lintdocs" --werror -q -o "$work/w" 2>"$work/werror.txt"
[ $? -eq 1 ] && grep -q "error-level lint findings (--werror)" "$work/werror.txt" &&
    ok "lint errors: exit 1 with --werror" || fail "lint errors: --werror did not fail the run"
echo "$passed passed, $failures failed"
[ $failures -eq 0 ]
