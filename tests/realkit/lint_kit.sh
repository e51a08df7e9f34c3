#!/usr/bin/env bash
# Lint against the pinned kit (issue 28): `ddigen lint --werror`-style
# status on a real kit with today's pages reports only what this kit and
# the pages truly disagree on. The error counts are the ones judged by
# reading page and header (docs/ARCHITECTURE.md, "Lint knows the pinned
# kit"); members of later releases are doc-field-newer notes. Every SARIF
# URI resolves to a file under its originalUriBaseIds root.
#   lint_kit.sh DDIGEN SPEC KIT DOCS_DIR WORK BIT_MISMATCH DOC_FIELD_MISSING DATED
# DATED: how many doc-field-missing errors are members the page dates in a
# version the kit has (the page contradicts the kit).
set -u
ddigen=$1 spec=$2 kit=$3 docs=$4 work=$5 want_bits=$6 want_missing=$7 want_dated=$8
[ -f "$spec" ] || { echo "SKIP: no $spec (../shared is absent): nothing linted"; exit 77; }
rm -rf "$work" && mkdir -p "$work"
failures=0
ok() { echo "ok   $*"; }
fail() { echo "FAIL $*"; failures=$((failures + 1)); }
"$ddigen" lint "$spec" --docs-root "$docs" --headers-root "$kit" --sarif "$work/lint.sarif" -o "$work/lint.txt" \
    2>"$work/summary.txt"
rc=$?
cat "$work/summary.txt"
[ $rc -eq 1 ] && ok "exit 1: error-level findings" || fail "exit $rc, wanted 1"
count() { grep -c ": $1: .*\[$2\]$" "$work/lint.txt"; }
bits=$(count error bit-mismatch) missing=$(count error doc-field-missing) newer=$(count note doc-field-newer)
dated=$(grep -c ": error: .*though the page dates it .*\[doc-field-missing\]$" "$work/lint.txt")
others=$(grep ": error: " "$work/lint.txt" | grep -vc "\[bit-mismatch\]$\|\[doc-field-missing\]$")
[ "$bits" -eq "$want_bits" ] && ok "$bits bit-mismatch errors" || fail "$bits bit-mismatch errors, judged $want_bits"
[ "$missing" -eq "$want_missing" ] && ok "$missing doc-field-missing errors" ||
    fail "$missing doc-field-missing errors, judged $want_missing"
[ "$dated" -eq "$want_dated" ] && ok "$dated of them dated by the page in a version this kit has" ||
    fail "$dated dated by the page in a version this kit has, judged $want_dated"
[ "$others" -eq 0 ] && ok "no other error kind" || fail "$others errors of other kinds"
[ "$newer" -gt 0 ] && ok "$newer doc-field-newer notes (members of later releases)" || fail "no doc-field-newer note"
python3 - "$work/lint.sarif" <<'PY' || fail "SARIF URIs do not all resolve"
import json, os, sys, urllib.parse
run = json.load(open(sys.argv[1], encoding='utf-8'))['runs'][0]
bases = {k: v['uri'] for k, v in run['originalUriBaseIds'].items()}
n = bad = 0
for r in run['results']:
    for loc in r.get('locations', []) + r.get('relatedLocations', []):
        a = loc['physicalLocation']['artifactLocation']
        path = urllib.parse.unquote(urllib.parse.urlsplit(urllib.parse.urljoin(bases[a['uriBaseId']], a['uri'])).path)
        n += 1
        if a['uri'].startswith('/') or not os.path.isfile(path):
            bad += 1
            print('does not resolve:', a, '->', path)
print(('ok   ' if n and not bad else 'FAIL ') + f'{n} SARIF URIs, each a file under its root ({sorted(bases)})')
sys.exit(0 if n and not bad else 1)
PY
grep -q '"uri": "shared/d3dkmddi.h", "uriBaseId": "HEADERS"' "$work/lint.sarif" && ok "headers named from the kit root (shared/d3dkmddi.h)" ||
    fail "no URI shared/d3dkmddi.h relative to the kit"
echo "$failures failed"
[ $failures -eq 0 ]
