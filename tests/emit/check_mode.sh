#!/usr/bin/env bash
# `ddigen emit --check`: 0 when the committed output is current, 3 when it
# is stale or missing, and it never writes.
set -u
ddigen=$1 spec=$2 work=$3
rm -rf "$work" && mkdir -p "$work"
failures=0 passed=0
"$ddigen" emit --spec "$spec" -o "$work/out" || { echo "FAIL emit"; exit 1; }
"$ddigen" emit --spec "$spec" -o "$work/again" && cmp -s "$work/out/ddi_layout_asserts.h" "$work/again/ddi_layout_asserts.h" \
    && { echo "ok   emit is deterministic"; passed=$((passed + 1)); } || { echo "FAIL two emits differ"; failures=$((failures + 1)); }
"$ddigen" emit --spec "$spec" -o "$work/out" --check \
    && { echo "ok   --check accepts current output"; passed=$((passed + 1)); } || { echo "FAIL --check on current output"; failures=$((failures + 1)); }
echo "/* edited */" >>"$work/out/ddi_layout_asserts.h"
cp "$work/out/ddi_layout_asserts.h" "$work/edited.h"
"$ddigen" emit --spec "$spec" -o "$work/out" --check 2>"$work/err.txt"
rc=$?
if [ $rc -eq 3 ] && grep -q "ddi_layout_asserts.h: error: stale" "$work/err.txt" && cmp -s "$work/out/ddi_layout_asserts.h" "$work/edited.h"; then
    echo "ok   --check reports stale output (exit 3) without writing"; passed=$((passed + 1))
else
    echo "FAIL --check on stale output: exit $rc"; cat "$work/err.txt"; failures=$((failures + 1))
fi
echo "$passed passed, $failures failed"
[ $failures -eq 0 ]
