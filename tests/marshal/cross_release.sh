#!/usr/bin/env bash
# A trace written by code generated from fixture 10.0.22621.0 is read by code
# generated from 10.0.26100.0 and the reverse. 10.0.26100.0 (at its default,
# WDDM 3.2) has DXGKARG_BUILDPAGINGBUFFER.DmaBufferWriteOffset, which
# 10.0.22621.0 has not: the new reader reports it missing, the old reader
# reports it as an unknown key, and neither misreads a field.
#   cross_release.sh XREL_22621 XREL_26100 SPEC_26100 WORK
set -u
old=$1 new=$2 spec=$3 work=$4
rm -rf "$work" && mkdir -p "$work"
id=$(grep -o '<field name="DmaBufferWriteOffset" id="[0-9]*"' "$spec" | head -1 | sed 's/.*id="\([0-9]*\)"/\1/')
[ -n "$id" ] || { echo "FAIL no DmaBufferWriteOffset in $spec: update this test"; exit 1; }
failures=0
expect() { # description file pattern
    if grep -q "$3" "$2"; then echo "ok   $1"; else echo "FAIL $1"; cat "$2"; failures=$((failures + 1)); fi
}
"$old" write "$work/old.cbor" && "$new" write "$work/new.cbor" || { echo "FAIL write"; exit 1; }
"$new" read "$work/old.cbor" >"$work/new-reads-old.txt"; rc1=$?
"$old" read "$work/new.cbor" >"$work/old-reads-new.txt"; rc2=$?
"$new" read "$work/new.cbor" >"$work/same.txt"; rc3=$?
[ $rc1 -eq 0 ] && [ $rc2 -eq 0 ] && [ $rc3 -eq 0 ] || { echo "FAIL a reader failed"; cat "$work"/*.txt; exit 1; }
expect "26100 reads 22621: DmaBufferWriteOffset (ID $id) missing, nothing unknown" "$work/new-reads-old.txt" \
    "call 1 dir 1: unknown 0 first 0; missing 1 first $id$"
expect "22621 reads 26100: DmaBufferWriteOffset (ID $id) an unknown key, nothing missing" "$work/old-reads-new.txt" \
    "call 1 dir 1: unknown 1 first $id; missing 0 first 0$"
expect "same release: nothing unknown, nothing missing" "$work/same.txt" "call 1 dir 1: unknown 0 first 0; missing 0 first 0$"
for f in new-reads-old old-reads-new same; do
    expect "$f: nothing misread" "$work/$f.txt" "^2 calls, nothing misread$"
done
[ $failures -eq 0 ]
