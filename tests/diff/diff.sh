#!/usr/bin/env bash
# `ddigen diff`: the fixture releases (golden report, every change a
# compatible addition behind WDDM3_2), one planted change per kind with its
# class, the exit bit mask, the report formats, renumbered and reused IDs,
# and bad input. With DDIGEN_UPDATE_GOLDEN=1 the golden reports are rewritten.
#   diff.sh DDIGEN SNAPSHOT_DIR INPUTS GOLDEN WORK
set -u
ddigen=$1 snapshots=$2 inputs=$3 golden=$4 work=$5
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
echo "$passed passed, $failures failed"
[ $failures -eq 0 ]
