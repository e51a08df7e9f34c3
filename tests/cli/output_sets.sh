#!/usr/bin/env bash
# Output sets are all-or-nothing (issue 24): `generate -o OUT` and `emit -o
# DIR` build the whole set in a staging folder beside OUT and switch it in at
# the end. A failed run (any error, --werror included) changes nothing in
# OUT and leaves no staging folder; files whose content did not change keep
# their inode and mtime; files the run does not write stay; then SIGKILL at
# random moments of regenerations (>= 25 trials, alternating between the
# sets of two kits) must leave OUT wholly the old set or wholly the new
# one, and the next run removes the debris.
#   output_sets.sh DDIGEN KIT_A KIT_B DOCS LINT_DOCS TEMPLATES WORK
# (LINT_DOCS: pages with error-level lint findings on KIT_B.)
set -u
ddigen=$1 kit_a=$2 kit_b=$3 docs=$4 lint_docs=$5 templates=$6 work=$7
rm -rf "$work" && mkdir -p "$work"
passed=0 failed=0
ok() { echo "ok   $*"; passed=$((passed + 1)); }
fail() { echo "FAIL $*"; failed=$((failed + 1)); }
cd "$work" || exit 1

# What a folder holds: every file's path and content hash (and, with
# inodes, its inode and mtime too).
manifest() { (cd "$1" && find . -type f -print0 | sort -z | xargs -0 -r sha1sum); }
inodes() { (cd "$1" && find . -type f -print0 | sort -z | xargs -0 -r stat -c '%i %Y %n'); }
debris() { find "$(dirname "$1")" -maxdepth 1 -name ".$(basename "$1").ddigen-*" | wc -l; }
gen() { "$ddigen" generate -q "$@"; }

gen --wdk "$kit_a" -o ref-a && gen --wdk "$kit_b" -o ref-b || { echo "FAIL reference sets"; echo "0 passed, 1 failed"; exit 1; }
manifest ref-a >a.txt
manifest ref-b >b.txt
cmp -s a.txt b.txt && { echo "FAIL the two kits give the same set: the kill test could not tell them apart"; exit 1; }

# --- a regeneration keeps what did not change -----------------------------
gen --wdk "$kit_a" --docs "$docs" -o out || fail "generate"
echo "the user's notes" >out/NOTES.txt
inodes out >before.txt
sleep 1.1
gen --wdk "$kit_a" --docs "$docs" -o out || fail "regenerate"
inodes out >after.txt
changed=$(diff before.txt after.txt | grep '^>' | grep -c '/include/')
[ "$changed" -eq 0 ] && ok "regenerating the same set keeps every generated file's inode and mtime" ||
    fail "$changed generated files were rewritten with the same content"
grep -q "the user's notes" out/NOTES.txt && ok "a file of the user's in OUT stays" || fail "the user's file is gone"
[ "$(debris out)" -eq 0 ] && ok "no staging folder left" || fail "staging folder left: $(ls -a .)"

# A depfile inside OUT (where ddigen_generate() puts it) switches in with the
# set, on the first run and on a regeneration.
for run in first again; do
    rm -f deps-out/ddigen.d.kept
    gen --wdk "$kit_a" --depfile deps-out/ddigen.d -o deps-out 2>dep.txt && grep -q 'deps-out/spec/ddi.xml:' deps-out/ddigen.d &&
        [ "$(debris deps-out)" -eq 0 ] && ok "a depfile inside OUT is there after the $run run" ||
        { fail "a depfile inside OUT ($run run)"; head -3 dep.txt; }
done

# --- a failed run changes nothing ---------------------------------------------
echo "<broken" >bad.xml
mkdir -p broken-templates && cp -r "$templates"/. broken-templates/ &&
    printf '<xsl:stylesheet version="1.0" xmlns:xsl="http://www.w3.org/1999/XSL/Transform"><xsl:template match="/"><xsl:value-of select="no-such-function()"/></xsl:template></xsl:stylesheet>\n' \
        >broken-templates/zz_broken.h.xsl
printf 'NoSuchCallback\n' >bad-list.txt
probe_failure() { # label command...
    local label=$1
    shift
    manifest out >m-before.txt
    inodes out >i-before.txt
    "$@" >/dev/null 2>fail.txt
    local rc=$?
    if [ $rc -eq 0 ]; then
        fail "$label: exit 0"
    elif ! diff -q <(inodes out) i-before.txt >/dev/null || ! diff -q <(manifest out) m-before.txt >/dev/null; then
        fail "$label: exit $rc but OUT changed"
    elif [ "$(debris out)" -ne 0 ]; then
        fail "$label: a staging folder was left"
    else
        ok "$label: exit $rc, OUT untouched ($(grep -m1 -o 'error: .*' fail.txt | cut -c1-70))"
    fi
}
probe_failure "bad --overrides" gen --wdk "$kit_b" --overrides bad.xml -o out
probe_failure "bad --previous" gen --wdk "$kit_b" --previous bad.xml -o out
probe_failure "bad --ddi-list" gen --wdk "$kit_b" --ddi-list bad-list.txt -o out
probe_failure "a broken template (generate)" gen --wdk "$kit_b" --templates broken-templates -o out
probe_failure "a broken template (emit)" "$ddigen" emit -q --spec ref-b/spec/ddi.xml --templates broken-templates -o out/include
probe_failure "a spec path that is a folder" "$ddigen" emit -q --spec ref-b/spec -o out/include
probe_failure "a missing kit" gen --wdk "$work/no-such-kit" -o out
# Pages with error-level lint findings (bit mismatches): --werror turns
# them into a failed run.
if "$ddigen" generate -q --wdk "$kit_b" --docs "$lint_docs" -o werror-probe 2>/dev/null && grep -q ': error:' werror-probe/lint.txt; then
    probe_failure "--werror with error-level lint findings" gen --wdk "$kit_b" --docs "$lint_docs" --werror -o out
else
    fail "the lint fixture gives no error-level lint finding: --werror not probed"
fi
mkdir -p plain-file-parent && echo x >plain-file-parent/out
"$ddigen" generate -q --wdk "$kit_a" -o plain-file-parent/out 2>/dev/null &&
    fail "-o naming a file: exit 0" || ok "-o naming a file is refused"
grep -qx x plain-file-parent/out && ok "... and the file is kept" || fail "the file was replaced"

# --- killed at random moments: wholly old or wholly new -----------------------
rm -rf out && cp -r ref-a out
start=$(date +%s%N)
gen --wdk "$kit_b" -o timing || fail "timing run"
span_ms=$(( ($(date +%s%N) - start) / 1000000 ))
RANDOM=2411   # the same moments every run
trials=30 old_seen=0 new_seen=0 mixed=0 current=a
for t in $(seq 1 $trials); do
    next=b kit=$kit_b
    [ $current = b ] && next=a kit=$kit_a
    delay=$(( RANDOM % (span_ms + span_ms / 4 + 1) ))
    "$ddigen" generate -q --wdk "$kit" -o out 2>/dev/null &   # not through gen(): $! must be ddigen itself
    pid=$!
    sleep "$(printf '%d.%03d' $((delay / 1000)) $((delay % 1000)))"
    kill -9 $pid 2>/dev/null
    wait $pid 2>/dev/null
    manifest out >now.txt
    if cmp -s now.txt $current.txt; then
        old_seen=$((old_seen + 1))
    elif cmp -s now.txt $next.txt; then
        new_seen=$((new_seen + 1)) current=$next
    else
        mixed=$((mixed + 1))
        echo "  trial $t (killed after ${delay} ms): neither set:"; diff $current.txt now.txt | head -4
        cmp -s now.txt a.txt || cmp -s now.txt b.txt || { cp -r ref-a/. out/ 2>/dev/null; current=a; }
    fi
done
[ $mixed -eq 0 ] && ok "$trials kills at random moments (0-$((span_ms * 5 / 4)) ms): OUT wholly old $old_seen times, wholly new $new_seen times, mixed 0" ||
    fail "$mixed of $trials kills left a mixed set"
gen --wdk "$kit_a" -o out && [ "$(debris out)" -eq 0 ] && cmp -s <(manifest out) a.txt &&
    ok "the next run removes the debris of killed runs and writes its set" || fail "debris after the next run: $(ls -a .)"
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
