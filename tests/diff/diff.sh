#!/usr/bin/env bash
# `ddigen diff`: the fixture releases (golden report, every change a
# compatible addition behind WDDM3_2), one planted change per kind with its
# class, the exit bit mask, the report formats, renumbered and reused IDs,
# and bad input. With DDIGEN_UPDATE_GOLDEN=1 the golden reports are rewritten.
#   diff.sh DDIGEN SNAPSHOT_DIR INPUTS GOLDEN WORK LISTS
# LISTS: tests/emit (display_only.list, a display-only driver's callbacks).
set -u
ddigen=$1 snapshots=$2 inputs=$3 golden=$4 work=$5 src_lists=$6
rm -rf "$work" && mkdir -p "$work"
failures=0 passed=0
ok() { echo "ok   $*"; passed=$((passed + 1)); }
fail() { echo "FAIL $*"; failures=$((failures + 1)); }

expect_exit() { # name want command...
    local name=$1 want=$2
    shift 2
    "$@" >"$work/out.txt" 2>"$work/err.txt"
    local rc=$?
    if [ $rc -eq "$want" ]; then ok "$name (exit $rc)"; else fail "$name: exit $rc, wanted $want"; cat "$work/err.txt"; fi
}

golden_check() { # name file
    local name=$1 file=$2
    [ "${DDIGEN_UPDATE_GOLDEN:-}" = 1 ] && cp "$work/out.txt" "$golden/$file"
    if cmp -s "$work/out.txt" "$golden/$file"; then ok "$name matches golden/$file"
    else fail "$name differs from golden/$file:"; diff "$golden/$file" "$work/out.txt" | head -20; fi
}

old=$snapshots/wdk-10.0.22621.0.layout.xml new=$snapshots/wdk-10.0.26100.0.layout.xml
(cd "$snapshots" && "$ddigen" diff wdk-10.0.22621.0.layout.xml wdk-10.0.26100.0.layout.xml) >"$work/out.txt" 2>"$work/err.txt"
rc=$?
# Every difference is behind WDDM3_2 and so a compatible addition, except
# DXGKDDI_WDDM_LATEST, an enumerator whose value moved to the new version.
[ $rc -eq 12 ] && ok "fixture releases: changes, one incompatible (exit 12)" || fail "fixture releases: exit $rc, wanted 12"
golden_check "fixture release report" fixture-releases.txt
incompatible=$(grep -c "source-breaking\]\|ABI-breaking\]" "$work/out.txt")
grep -q "changed         enum value DXGK_WDDMVERSION::DXGKDDI_WDDM_LATEST: 12544 -> 12800 in VISTA-WDDM3_1 \[ABI-breaking\]" "$work/out.txt" &&
    [ "$incompatible" -eq 1 ] && ok "the only incompatible change is DXGKDDI_WDDM_LATEST" ||
    fail "incompatible changes other than DXGKDDI_WDDM_LATEST ($incompatible)"
for must in "added           version WDDM3_2" "operation DXGK_BUILDPAGINGBUFFER_OPERATION::DXGK_OPERATION_MAP_MMU" \
            "field DXGKARG_BUILDPAGINGBUFFER.DmaBufferWriteOffset" "field DXGK_ALLOCATIONINFO.MmuSet" \
            "field DXGK_ALLOCATIONINFOFLAGS2.NotifyEviction" "record DXGK_BUILDPAGINGBUFFER_NOTIFYALLOC" \
            "field DXGKARG_BUILDPAGINGBUFFER.MmapMmu" "field DXGKARGCB_NOTIFY_INTERRUPT_DATA.DmaPageFaulted2.FaultedFenceId"; do
    grep -qF "$must" "$work/out.txt" && ok "reports: $must" || fail "does not report: $must"
done

(cd "$inputs" && "$ddigen" diff old.xml new.xml) >"$work/out.txt" 2>"$work/err.txt"
rc=$?
[ $rc -eq 12 ] && ok "planted changes: changed and incompatible (exit 12)" || fail "planted changes: exit $rc, wanted 12"
golden_check "planted changes report" planted.txt
(cd "$inputs" && "$ddigen" diff --format json old.xml new.xml) >"$work/out.txt" 2>/dev/null
golden_check "JSON report" planted.json
if command -v python3 >/dev/null; then
    python3 -m json.tool "$work/out.txt" >/dev/null && ok "JSON report parses" || fail "JSON report does not parse"
fi
(cd "$inputs" && "$ddigen" diff --format xml old.xml new.xml) >"$work/out.txt" 2>/dev/null
golden_check "XML report" planted.xml
xmllint --noout "$work/out.txt" && ok "XML report is well-formed" || fail "XML report is not well-formed"
expect_exit "no change between a spec and itself" 0 "$ddigen" diff "$inputs/old.xml" "$inputs/old.xml"

expect_exit "a renumbered ID is refused" 1 "$ddigen" diff "$inputs/old.xml" "$inputs/renumbered.xml"
grep -q "renumbered.xml:[0-9]*: error: .*Count.* was renumbered: id 7, but .*old.xml:[0-9]* gives it id 3" "$work/err.txt" \
    && ok "renumbering named" || { fail "renumbering not named"; cat "$work/err.txt"; }
expect_exit "a reused ID is refused" 1 "$ddigen" diff "$inputs/old.xml" "$inputs/reused.xml"
grep -q "reused.xml:[0-9]*: error: id 4 of field Legacy.* is already the id of field Size.*never reused" "$work/err.txt" \
    && ok "reuse named" || { fail "reuse not named"; cat "$work/err.txt"; }

expect_exit "missing file" 1 "$ddigen" diff "$inputs/old.xml" "$work/none.xml"
expect_exit "spec that fails the schema" 1 "$ddigen" diff "$inputs/old.xml" "$inputs/../../header/inputs/broken_spec.xml"
grep -q "broken_spec.xml:6: error" "$work/err.txt" && ok "schema error has file:line" || fail "no file:line for the schema error"
expect_exit "usage" 2 "$ddigen" diff "$inputs/old.xml"
expect_exit "unknown format" 2 "$ddigen" diff --format yaml "$inputs/old.xml" "$inputs/new.xml"
printf 'kept' >"$work/kept.txt"
"$ddigen" diff -o "$work/kept.txt" "$inputs/old.xml" "$inputs/renumbered.xml" 2>/dev/null
[ "$(cat "$work/kept.txt")" = kept ] && ok "refused diff leaves -o file untouched" || fail "refused diff wrote -o file"
# ---- issue 28: scope, --fail-on, reserved bits given names ----------------
# Reserved bits: a Reserved : 30 that gives a bit to a new named field is
# compatible; one that loses more bits than are named is not. A kernel
# record (referenced, from wdm.h) is reported only with --scope all.
expect_exit "reserved bits named, one not conserved, a kernel record grown" 12 \
    "$ddigen" diff "$inputs/carve_old.xml" "$inputs/carve_new.xml"
grep -qF "narrowed        field NARROWED.Reserved: UINT : 30 -> UINT : 29 (bits named: Third) [compatible]" "$work/out.txt" &&
    ok "Reserved : 30 -> : 29 with Third : 1 in its place is compatible" || fail "reserved narrowing: $(grep NARROWED.Reserved "$work/out.txt")"
grep -qF "type changed    field NOT_CONSERVED.Reserved: UINT : 31 -> UINT : 29 [source-breaking]" "$work/out.txt" &&
    ok "Reserved that loses more bits than are named stays source-breaking" || fail "not conserved: $(grep NOT_CONSERVED.Reserved "$work/out.txt")"
! grep -q KOBJECT "$work/out.txt" && ok "kernel record left out by default" || fail "kernel record reported without --scope all"
sed -n 2,3p "$work/out.txt" | grep -q "^summary: 4 changes: 0 ABI-breaking, 1 source-breaking, 3 compatible$" &&
    head -4 "$work/out.txt" | tail -1 | grep -q "^source-breaking (1):$" &&
    ok "text starts with the counts per class, the incompatible changes first" || fail "summary first: $(head -4 "$work/out.txt")"
expect_exit "--scope all: the kernel record's growth is an ABI break" 12 \
    "$ddigen" diff --scope all "$inputs/carve_old.xml" "$inputs/carve_new.xml"
grep -qF "layout changed  record KOBJECT: x86: size 4 align 4 -> size 8 align 4 in A [ABI-breaking]" "$work/out.txt" &&
    ok "--scope all reports the kernel record" || fail "--scope all: no KOBJECT"
expect_exit "--fail-on abi: source-breaking only -> 0" 0 "$ddigen" diff --fail-on abi "$inputs/carve_old.xml" "$inputs/carve_new.xml"
expect_exit "--fail-on source: source-breaking -> 12" 12 "$ddigen" diff --fail-on source "$inputs/carve_old.xml" "$inputs/carve_new.xml"
expect_exit "--fail-on abi: the planted ABI breaks -> 12" 12 "$ddigen" diff --fail-on abi "$inputs/old.xml" "$inputs/new.xml"
expect_exit "--fail-on any is the default" 12 "$ddigen" diff --fail-on any "$inputs/old.xml" "$inputs/new.xml"
expect_exit "--fail-on with a bad class" 2 "$ddigen" diff --fail-on minor "$inputs/old.xml" "$inputs/new.xml"
grep -q "fail-on 'minor': expected any, source or abi" "$work/err.txt" && ok "  named" || fail "  $(cat "$work/err.txt")"
expect_exit "--scope with a bad value" 2 "$ddigen" diff --scope kernel "$inputs/old.xml" "$inputs/new.xml"

# A driver's list: the fixture releases as a paging driver and as a
# display-only driver see them.
printf '# the paging callback only\nDxgkDdiBuildPagingBuffer\n' >"$work/paging.list"
expect_exit "paging driver: compatible additions" 4 "$ddigen" diff --ddi-list "$work/paging.list" "$old" "$new"
grep -qF "field DXGKARG_BUILDPAGINGBUFFER.MmapMmu" "$work/out.txt" && grep -qF "record DXGK_BUILDPAGINGBUFFER_MAPMMU" "$work/out.txt" &&
    ok "paging driver: the argument record's new members and the records they bring" || fail "paging driver: $(head -3 "$work/out.txt")"
! grep -q "DXGK_ALLOCATIONINFO\.\|DXGK_WDDMVERSION" "$work/out.txt" &&
    ok "paging driver: nothing its callback does not reach" || fail "paging driver: $(grep -m2 "DXGK_ALLOCATIONINFO\.\|DXGK_WDDMVERSION" "$work/out.txt")"
grep -q "^scope: what the driver's callbacks reach: [0-9]* records (of [0-9]*)" "$work/out.txt" &&
    ok "paging driver: the scope is stated" || fail "paging driver: $(sed -n 2p "$work/out.txt")"
expect_exit "paging driver --fail-on abi: nothing breaks" 0 "$ddigen" diff --ddi-list "$work/paging.list" --fail-on abi "$old" "$new"
expect_exit "display-only driver" 4 "$ddigen" diff --ddi-list "$src_lists/display_only.list" --driver-kind display-only "$old" "$new"
! grep -q "BUILDPAGINGBUFFER" "$work/out.txt" && ok "display-only driver: no paging record" ||
    fail "display-only driver: $(grep -m1 BUILDPAGINGBUFFER "$work/out.txt")"
# A changed struct the driver uses fails --fail-on abi, naming it; a driver
# that does not reach it is not failed.
# (the record's own x64 size, the first after its opening line, 8 bytes more)
awk '/<record name="DXGKARG_BUILDPAGINGBUFFER" / { at = 1 }
     at && /<size arch="x64" / { match($0, /bytes="[0-9]+"/); n = substr($0, RSTART + 7, RLENGTH - 8);
                                        sub(/bytes="[0-9]+"/, "bytes=\"" n + 8 "\""); at = 0 } { print }' "$new" >"$work/grown.xml"
cmp -s "$new" "$work/grown.xml" && fail "the changed struct was not planted"
expect_exit "paging driver, DXGKARG_BUILDPAGINGBUFFER grown: --fail-on abi" 12 \
    "$ddigen" diff --ddi-list "$work/paging.list" --fail-on abi "$old" "$work/grown.xml"
sed -n '/^ABI-breaking/,/^[a-z]/p' "$work/out.txt" | grep -q "layout changed  record DXGKARG_BUILDPAGINGBUFFER: x64: size" &&
    ok "  the record named among the ABI-breaking changes" || fail "  $(head -6 "$work/out.txt")"
expect_exit "display-only driver, same change: --fail-on abi passes" 0 \
    "$ddigen" diff --ddi-list "$src_lists/display_only.list" --driver-kind display-only --fail-on abi "$old" "$work/grown.xml"
printf 'DxgkDdiNoSuchCallback\n' >"$work/bad.list"
expect_exit "a list name the spec lacks" 1 "$ddigen" diff --ddi-list "$work/bad.list" "$old" "$new"
grep -q "DxgkDdiNoSuchCallback" "$work/err.txt" && ok "  named" || fail "  $(cat "$work/err.txt")"

echo "$passed passed, $failures failed"
[ $failures -eq 0 ]
