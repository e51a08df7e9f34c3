#!/usr/bin/env bash
# The stable-ID chain across two real WDK releases: generate on OLD, then
# on NEW with --previous OLD's spec (with and without the real pages); no ID
# is refused, `ddigen diff` reads the pair without error, and an independent
# reader (id_chain.py) finds every item of OLD with its ID in NEW or
# retired, and no item with two IDs or an ID given twice.
#   id_chain.sh DDIGEN OLD_KIT NEW_KIT DOCS_DIR WORK
set -u
ddigen=$1 old=$2 new=$3 docs=$4 work=$5
here=$(cd "$(dirname "$0")" && pwd)
for k in "$old" "$new"; do
    [ -d "$k" ] || { echo "SKIP: no real kit at $k (../shared is absent): nothing tested"; exit 77; }
done
rm -rf "$work" && mkdir -p "$work"
passed=0 failed=0
ok() { echo "ok   $*"; passed=$((passed + 1)); }
fail() { echo "FAIL $*"; failed=$((failed + 1)); }

chain() { # label extra-args...
    local label=$1
    shift
    local a=$work/$label-old b=$work/$label-new
    if ! "$ddigen" generate --wdk "$old" "$@" -q -o "$a" 2>"$work/$label-old.txt"; then
        fail "$label: generate on $(basename "$old")"; head -5 "$work/$label-old.txt"; return
    fi
    if ! "$ddigen" generate --wdk "$new" "$@" --previous "$a/spec/ddi.xml" -q -o "$b" 2>"$work/$label-new.txt"; then
        fail "$label: generate on $(basename "$new") --previous refused:"; head -5 "$work/$label-new.txt"; return
    fi
    ok "$label: $(basename "$new") --previous $(basename "$old") accepted"
    "$ddigen" diff "$a/spec/ddi.xml" "$b/spec/ddi.xml" >"$work/$label-diff.txt" 2>&1
    local rc=$?
    if [ $((rc & 3)) -ne 0 ]; then
        fail "$label: diff exit $rc (error or usage):"; grep -m5 error "$work/$label-diff.txt"
    else
        ok "$label: diff exit $rc ($(wc -l <"$work/$label-diff.txt") lines; bit 4 change, bit 8 incompatible)"
    fi
    if python3 "$here/id_chain.py" "$a/spec/ddi.xml" "$b/spec/ddi.xml" >"$work/$label-ids.txt"; then
        ok "$label: $(grep '^ids:' "$work/$label-ids.txt")"
    else
        fail "$label: the ID chain:"; grep -v passed "$work/$label-ids.txt" | head -20
    fi
}

chain layout
if [ -d "$docs" ]; then
    chain docs --docs "$docs"
else
    echo "note: no pages at $docs: the chain with --docs is not tested"
fi
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
