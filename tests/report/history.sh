#!/usr/bin/env bash
# ddigen history (issue 29): a folder of kits given as it is (generated in
# version order, IDs chained) gives the same history.json as the specs
# generated here with --previous and given oldest first; and that JSON
# says what an independent reading of the specs says (history_check.py):
# each record's kits, introduced and last kit, sizes per architecture,
# each field's first and last kit; each record page carries its strip.
# usage: history.sh DDIGEN WORK KITS_FOLDER [DOCS]
set -u
ddigen=$1 work=$2 kits=$3 docs=${4:-}
here=$(cd "$(dirname "$0")" && pwd)
[ -d "$kits" ] || { echo "SKIP: $kits is absent (real kits live in ../shared)"; exit 77; }
fail() { echo "FAIL: $*"; exit 1; }
rm -rf "$work" && mkdir -p "$work/specs"
docs_opt=()
[ -n "$docs" ] && docs_opt=(--docs "$docs")
previous=() specs=()
for kit in $(cd "$kits" && ls -d 10.* | sort -V); do
    "$ddigen" generate --wdk "$kits/$kit" "${docs_opt[@]}" "${previous[@]}" -q -o "$work/specs/$kit" 2>"$work/gen.txt" ||
        fail "generate $kit: $(head -5 "$work/gen.txt")"
    previous=(--previous "$work/specs/$kit/spec/ddi.xml")
    specs+=("$work/specs/$kit/spec/ddi.xml")
done
start=$(date +%s%N)
"$ddigen" history "$kits" "${docs_opt[@]}" -o "$work/from-kits" 2>"$work/kits.txt" || fail "history on the kits: $(head -5 "$work/kits.txt")"
end=$(date +%s%N)
echo "history over ${#specs[@]} kits (generating them): $(( (end - start) / 1000000 )) ms"
"$ddigen" history "${specs[@]}" -o "$work/from-specs" 2>"$work/specs.txt" || fail "history on the specs: $(head -5 "$work/specs.txt")"
cmp -s "$work/from-kits/history.json" "$work/from-specs/history.json" || fail "history.json differs between kits and specs"
echo "kits and their specs give the same history.json"
"$ddigen" history "$kits" "${docs_opt[@]}" -o "$work/from-kits-again" 2>/dev/null || fail "history on the kits, again"
diff -r "$work/from-kits" "$work/from-kits-again" >/dev/null || fail "two runs of history on the kits differ"
echo "deterministic: two runs on the kits give the same site"
"$ddigen" history "${specs[1]}" "${specs[0]}" -o "$work/reversed" 2>"$work/rev.txt" && fail "specs given newest first were accepted"
[ ! -e "$work/reversed" ] || fail "a refused history wrote its DIR"
echo "specs out of order: refused (their IDs do not chain), nothing written"
# A kit whose layout fails (no headers) among good ones: its layout runs
# beside the others' (a pool of processes); the run stops, names it, and
# writes nothing.
mkdir -p "$work/broken/10.0.1.0/km"
all=($(cd "$kits" && ls -d 10.* | sort -V))
"$ddigen" history "$kits/${all[0]}" "$work/broken/10.0.1.0" "${all[@]/#/$kits/}" -o "$work/with-broken" \
    2>"$work/broken.txt" && fail "a kit whose layout fails was accepted"
grep -q "broken/10.0.1.0: error: history: ddigen layout failed" "$work/broken.txt" ||
    fail "the failing kit is not named: $(tail -3 "$work/broken.txt")"
[ ! -e "$work/with-broken" ] || fail "a failed history wrote its DIR"
echo "a kit whose layout fails: refused, named, nothing written"
exec python3 "$here/history_check.py" "$work/from-specs" "${specs[@]}"
