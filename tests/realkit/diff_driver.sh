#!/usr/bin/env bash
# A diff about the driver (issue 28) on the real kits: 10240 -> 14393 as a
# display-only driver sees it (tests/emit/display_only.list, its 28
# callbacks): a short report that names no record of the whole kit's 700
# lines, and a record the driver passes, grown in a copy of 14393's spec,
# fails --fail-on abi with the record named.
#   diff_driver.sh DDIGEN SPECS LIST WORK   (SPECS: kit_specs.sh's OUT)
set -u
ddigen=$1 specs=$2 list=$3 work=$4
old=$specs/old/spec/ddi.xml new=$specs/new/spec/ddi.xml
[ -f "$old" ] && [ -f "$new" ] || { echo "SKIP: no kit specs (../shared is absent): nothing compared"; exit 77; }
rm -rf "$work" && mkdir -p "$work"
failures=0
ok() { echo "ok   $*"; }
fail() { echo "FAIL $*"; failures=$((failures + 1)); }
driver=(--ddi-list "$list" --driver-kind display-only)

"$ddigen" diff "$old" "$new" >"$work/kit.txt"
kit_rc=$?
"$ddigen" diff "${driver[@]}" "$old" "$new" >"$work/driver.txt"
rc=$?
sed -n 1,3p "$work/kit.txt"
cat "$work/driver.txt"
[ $kit_rc -eq 12 ] && [ $rc -eq 12 ] && ok "exit 12 both ways (the DDI version constant WDDM2_0 changed value)" ||
    fail "exit $kit_rc (kit) and $rc (driver), wanted 12"
kit_lines=$(wc -l <"$work/kit.txt") driver_lines=$(wc -l <"$work/driver.txt")
[ "$driver_lines" -lt 20 ] && [ "$kit_lines" -gt 600 ] && ok "$driver_lines lines for the driver, $kit_lines for the kit" ||
    fail "$driver_lines lines for the driver, $kit_lines for the kit"
grep -q "^scope: what the driver's callbacks reach: 48 records (of 456), kernel records left out$" "$work/driver.txt" &&
    ok "48 records in the driver's scope, as generate --ddi-list covers" || fail "scope: $(sed -n 2p "$work/driver.txt")"
sed -n '/^ABI-breaking/,/^compatible/p' "$work/driver.txt" | grep -v "^ABI-breaking\|^compatible" >"$work/incompatible.txt"
[ "$(cat "$work/incompatible.txt")" = "  changed         version WDDM2_0: 0x5022 -> 0x5023 [ABI-breaking]" ] &&
    ok "the only incompatible change is the version constant: no record the driver passes broke" ||
    fail "incompatible: $(cat "$work/incompatible.txt")"
! grep -q "DISPATCHER_HEADER\|FILE_INFORMATION_CLASS\|WAIT_CONTEXT_BLOCK" "$work/kit.txt" &&
    ok "kernel records left out of the kit's report too" || fail "kernel records in the kit's report"
"$ddigen" diff --scope all "$old" "$new" | grep -q "FileMaximumInformation" && ok "--scope all reports them" ||
    fail "--scope all: no FileMaximumInformation"

# A changed struct the driver passes: DXGKARG_PRESENT_DISPLAYONLY grows on
# x64 in a copy of 14393's spec.
awk '/<record name="DXGKARG_PRESENT_DISPLAYONLY" / { at = 1 }
     at && /<size arch="x64" / { match($0, /bytes="[0-9]+"/); n = substr($0, RSTART + 7, RLENGTH - 8);
                                 sub(/bytes="[0-9]+"/, "bytes=\"" n + 8 "\""); at = 0 } { print }' "$new" >"$work/grown.xml"
cmp -s "$new" "$work/grown.xml" && fail "the change was not planted"
"$ddigen" diff "${driver[@]}" --fail-on abi "$new" "$work/grown.xml" >"$work/grown.txt"
rc=$?
cat "$work/grown.txt"
[ $rc -eq 12 ] && ok "--fail-on abi fails (exit 12)" || fail "--fail-on abi: exit $rc, wanted 12"
sed -n '/^ABI-breaking/,/^[a-z]/p' "$work/grown.txt" | grep -q "layout changed  record DXGKARG_PRESENT_DISPLAYONLY: x64: size 64" &&
    ok "the record named among the ABI-breaking changes" || fail "the record is not named"
echo "$failures failed"
[ $failures -eq 0 ]
