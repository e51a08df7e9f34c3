#!/usr/bin/env bash
# ddigen check-driver over the display-only sample (tests/fixtures/kmdod,
# C++: free BddDdi* entry points forwarding to a class, a hand-written
# KMDDOD_INITIALIZATION_DATA, explicit prototypes with their own SAL,
# #pragma code_seg regions) against the real 14393 kit with its DDI pages:
#   - the sample as written: no finding, x86 and x64, at WDDM2_0 and WDDM1_3;
#   - a copy with plant.py's three mismatches (two SAL annotations, a
#     calling convention hidden by a cast in the table): exactly those at
#     their file:line, exit 1, on x86; on x64, where __stdcall is the one
#     convention, the two SAL warnings only (exit 0: warnings); the SARIF
#     log has the same results;
#   - the planted copy ported onto the skeleton (BDD_PORTED: the generated
#     declarations instead of the hand-written ones): on x86 the definition
#     takes __stdcall from the generated declaration, so only the two SAL
#     warnings remain.
# With the official SARIF schema (SCHEMA) and python3-jsonschema, the logs
# are also validated against it.
#   check_driver.sh DDIGEN SOURCE_DIR KIT_DIR DOCS_DIR WORK [SCHEMA]
# Exit 77 (skipped) without the kit.
set -u
ddigen=$1 src=$2 kit=$3 docs=$4 work=$5 schema=${6:-}
. "$src/tests/lib/realkit.sh"
realkit_or_skip "$kit"
driver=$src/tests/fixtures/kmdod
rm -rf "$work" && mkdir -p "$work"
failures=0 passed=0
fail() { echo "FAIL $*"; failures=$((failures + 1)); }
ok() { echo "ok   $*"; passed=$((passed + 1)); }

# The spec with the pages (their req.irql: RecommendMonitorModes is "<
# DISPATCH_LEVEL", which allows the driver's PAGE), and the skeleton's
# headers for the port.
docs_arg=()
if [ -d "$docs" ]; then docs_arg=(--docs "$docs"); else echo "note: no DDI pages at $docs, generating without"; fi
"$ddigen" generate --wdk "$kit" "${docs_arg[@]}" --outputs skeleton --driver-kind display-only \
    --ddi-list "$driver/bdd.list" --callback-name 'BddDdi%s' --param ddi-version=WDDM1_3..WDDM2_0 \
    -q -o "$work/gen" >"$work/generate.log" 2>&1 ||
    { cat "$work/generate.log"; echo "FAIL generate"; exit 1; }
spec=$work/gen/spec/ddi.xml

sources="bdd_ddi.cpp bdd_adapter.cpp bdd_vidpn.cpp bdd_blt.cpp"
check() { # dir arch version out [flags...] -> exit status
    local dir=$1 arch=$2 version=$3 out=$4 ntddi=0x0A000000
    shift 4
    [ "$version" = WDDM1_3 ] && ntddi=0x06030000
    # shellcheck disable=SC2086
    (cd "$dir" && "$ddigen" check-driver $sources --spec "$spec" --wdk "$kit" --arch "$arch" \
        --sarif "$out.sarif" -o "$out.txt" -- -I. -DDXGKDDI_INTERFACE_VERSION=DXGKDDI_INTERFACE_VERSION_"$version" \
        -DNTDDI_VERSION=$ntddi -D_WIN32_WINNT="${ntddi:0:6}" "$@" 2>"$out.err")
}
# file line kind of each finding, sorted.
findings() { sed -n 's/^\([^:]*\):\([0-9]*\):[0-9]*: \(error\|warning\): .*\[\([a-z-]*\)\]$/\1 \2 \4/p' "$1" | sort; }
# The SARIF log: valid JSON (and schema), the same findings (file, line, ruleId) as EXPECTED.
sarif_matches() { # log expected
    python3 - "$1" "$2" "$schema" <<'PY'
import json, os, sys
log = json.load(open(sys.argv[1]))
if sys.argv[3] and os.path.exists(sys.argv[3]):
    try:
        import jsonschema
    except ImportError:
        jsonschema = None
    if jsonschema:
        jsonschema.validate(log, json.load(open(sys.argv[3])))
        print("  valid against", sys.argv[3])
run = log["runs"][0]
assert log["version"] == "2.1.0"
rules = [r["id"] for r in run["tool"]["driver"]["rules"]]
got = sorted(f'{r["locations"][0]["physicalLocation"]["artifactLocation"]["uri"]} '
             f'{r["locations"][0]["physicalLocation"]["region"]["startLine"]} {r["ruleId"]}'
             for r in run["results"])
assert all(rules[r["ruleIndex"]] == r["ruleId"] for r in run["results"])
want = sorted(open(sys.argv[2]).read().split("\n")[:-1])
assert got == want, (got, want)
PY
}

# 1. The sample as written.
for cell in x86:WDDM2_0 x64:WDDM2_0 x86:WDDM1_3; do
    arch=${cell%%:*} v=${cell##*:}
    check "$driver/src" "$arch" "$v" "$work/clean-$arch-$v"
    rc=$?
    if [ $rc -eq 0 ] && [ ! -s "$work/clean-$arch-$v.txt" ]; then
        ok "the sample as written, $arch $v: no finding"
    else
        fail "the sample as written, $arch $v: exit $rc"; cat "$work/clean-$arch-$v.txt" "$work/clean-$arch-$v.err"
    fi
done

# 2. The planted copy.
cp -r "$driver/src" "$work/planted"
python3 "$src/tests/kmdod/plant.py" "$work/planted" >"$work/planted.expected" || { echo "FAIL plant"; exit 1; }
for cell in x86:1 x64:0; do
    arch=${cell%%:*} want_rc=${cell##*:}
    awk -v a=$arch '$4 == "all" || $4 == a { print $1, $2, $3 }' "$work/planted.expected" | sort >"$work/expected-$arch"
    check "$work/planted" $arch WDDM2_0 "$work/planted-$arch"
    rc=$?
    findings "$work/planted-$arch.txt" >"$work/got-$arch"
    if [ $rc -eq "$want_rc" ] && diff -u "$work/expected-$arch" "$work/got-$arch"; then
        ok "planted, $arch: exactly the $(wc -l <"$work/expected-$arch") planted findings (exit $rc)"
    else
        fail "planted, $arch: exit $rc (want $want_rc)"; cat "$work/planted-$arch.txt" "$work/planted-$arch.err"
    fi
    sarif_matches "$work/planted-$arch.sarif" "$work/expected-$arch" &&
        ok "planted, $arch: the SARIF log has the same findings" || fail "planted, $arch: SARIF"
done

# 3. The planted copy ported: the generated declarations give the
#    definition the DDI's convention; the SAL stays the driver's.
grep -v callconv-mismatch "$work/expected-x86" >"$work/expected-ported"
check "$work/planted" x86 WDDM2_0 "$work/ported-x86" -DBDD_PORTED -I"$work/gen/include"
rc=$?
findings "$work/ported-x86.txt" >"$work/got-ported"
if [ $rc -eq 0 ] && diff -u "$work/expected-ported" "$work/got-ported"; then
    ok "planted and ported, x86: the calling convention comes from the generated declaration; the 2 SAL findings remain"
else
    fail "planted and ported, x86: exit $rc"; cat "$work/ported-x86.txt" "$work/ported-x86.err"
fi

# 4. Every callback is recognised, as written (through the table) and
#    ported (through the generated role typedefs only, d3dkmddi.h's APIENTRY
#    ones included): without its PAGED_CODE(), each of the 25 entry points
#    in PAGE is reported, once.
cp -r "$driver/src" "$work/nopaged"
sed -i '/^    PAGED_CODE();$/d' "$work/nopaged/bdd_ddi.cpp"
paged=$(grep -c '^NTSTATUS\|^VOID\|^BOOLEAN' <(sed -n '/^#pragma code_seg("PAGE")$/,/^#pragma code_seg()$/p' "$driver/src/bdd_ddi.cpp"))
for mode in written ported; do
    flags=()
    [ $mode = ported ] && flags=(-DBDD_PORTED -I"$work/gen/include")
    check "$work/nopaged" x64 WDDM2_0 "$work/nopaged-$mode" "${flags[@]}"
    got=$(findings "$work/nopaged-$mode.txt" | awk '$3 == "paged-code-missing"' | sort -u | wc -l)
    others=$(findings "$work/nopaged-$mode.txt" | awk '$3 != "paged-code-missing"' | wc -l)
    if [ "$paged" = 25 ] && [ "$got" = 25 ] && [ "$others" = 0 ]; then
        ok "$mode: the 25 PAGE entry points without PAGED_CODE() are each reported, nothing else"
    else
        fail "$mode: $got of $paged PAGE entry points reported, $others other findings"; cat "$work/nopaged-$mode.txt"
    fi
done

echo "$passed passed, $failures failed"
[ $failures -eq 0 ]
