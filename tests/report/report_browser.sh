#!/usr/bin/env bash
# ddigen report end to end (issue 29): two kits generated (the second with
# --previous so its IDs chain), lint's SARIF, the site with --previous and
# --lint; then the command's promises (byte-identical across runs; a bad
# input is exit 1 and DIR is left as it was) and the site in headless
# Chromium (browser.py). Skips with a message (77) when the kits are
# absent, and the browser part when chromium is.
# usage: report_browser.sh DDIGEN WORK OLD_KIT NEW_KIT DOCS DOCS_ROOT RECORD
set -u
ddigen=$1 work=$2 old_kit=$3 new_kit=$4 docs=$5 docs_root=$6 record=$7
here=$(cd "$(dirname "$0")" && pwd)
for d in "$old_kit" "$new_kit" "$docs"; do
    [ -d "$d" ] || { echo "SKIP: $d is absent (real kits and pages live in ../shared)"; exit 77; }
done
fail() { echo "FAIL: $*"; exit 1; }
rm -rf "$work" && mkdir -p "$work"
"$ddigen" generate --wdk "$old_kit" --docs "$docs" -q -o "$work/old" 2>"$work/old.txt" || fail "generate $old_kit: $(head -5 "$work/old.txt")"
"$ddigen" generate --wdk "$new_kit" --docs "$docs" --previous "$work/old/spec/ddi.xml" -q -o "$work/new" \
    2>"$work/new.txt" || fail "generate $new_kit: $(head -5 "$work/new.txt")"
spec=$work/new/spec/ddi.xml
"$ddigen" lint "$spec" --sarif "$work/lint.sarif" -o "$work/lint.txt" >/dev/null 2>&1
[ -s "$work/lint.sarif" ] || fail "lint wrote no SARIF"
report() { "$ddigen" report "$spec" --previous "$work/old/spec/ddi.xml" --lint "$work/lint.sarif" --docs-root "$docs_root" "$@"; }
start=$(date +%s%N)
report -o "$work/site" -v 2>"$work/report.txt" || fail "report: $(head -5 "$work/report.txt")"
end=$(date +%s%N)
echo "$(cat "$work/report.txt") in $(( (end - start) / 1000000 )) ms"
report -o "$work/site2" 2>/dev/null || fail "second report"
diff -r "$work/site" "$work/site2" >/dev/null || fail "two runs of report differ"
echo "deterministic: two runs give the same bytes"
largest=$(find "$work/site" -name '*.html' -printf '%s\n' | sort -n | tail -1)
[ "$largest" -le 1048576 ] || fail "a page of $largest bytes (over 1 MB)"
echo "largest page: $largest bytes"
# A bad input: exit 1, an error naming the file, and DIR as it was.
printf '{"runs": [{"results": [' >"$work/bad.sarif"
before=$(cd "$work/site" && find . -type f -printf '%p %s %T@\n' | sort | md5sum)
"$ddigen" report "$spec" --lint "$work/bad.sarif" -o "$work/site" 2>"$work/bad.txt"
rc=$?
[ $rc -eq 1 ] || fail "a report on a broken SARIF log exited $rc, not 1"
grep -q "bad.sarif:1: error: invalid JSON" "$work/bad.txt" || fail "no error naming the log: $(cat "$work/bad.txt")"
after=$(cd "$work/site" && find . -type f -printf '%p %s %T@\n' | sort | md5sum)
[ "$before" = "$after" ] || fail "a failed report changed DIR"
"$ddigen" report "$spec" --lint "$work/bad.sarif" -o "$work/never" 2>/dev/null
[ ! -e "$work/never" ] || fail "a failed report created DIR"
echo "bad input: exit 1, the log named, DIR untouched"
exec python3 "$here/browser.py" "$work/site" "$record" "$spec" --shots "$work/screenshots" \
    --docs-root "$docs_root" --also changes.html --also lint.html
