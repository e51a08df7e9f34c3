#!/usr/bin/env bash
# `ddigen trace` on traces written by the code generated from the two
# fixture releases (marshal_xrel): fields named from the spec alone, a field
# of another release shown as unknown, --ddi-version listing the fields a
# call lacks, valid JSON, deterministic output, a broken documented rule
# flagged at its field by the validators' evaluator,
# and bad input (truncated, unknown record, bad options) refused with exit 1
# and nothing written.
#   trace_cli.sh DDIGEN XREL_22621 XREL_26100 SPEC_22621 SPEC_26100 WORK
set -u
ddigen=$1 old=$2 new=$3 spec_old=$4 spec_new=$5 work=$6
rm -rf "$work" && mkdir -p "$work"
failures=0
ok() { echo "ok   $1"; }
fail() { echo "FAIL $1"; failures=$((failures + 1)); }
has() { # description file fixed-string
    if grep -qF -- "$3" "$2"; then ok "$1"; else fail "$1: no '$3' in"; sed 's/^/    /' "$2" | head -40; fi
}
"$old" write "$work/old.cbor" && "$new" write "$work/new.cbor" || { echo "FAIL write"; exit 1; }
id_fp=$(grep -o '<field name="FillPattern" id="[0-9]*" path="Fill.FillPattern"' "$spec_new" | sed 's/.*id="\([0-9]*\)".*/\1/')
id_wo=$(grep -o '<field name="DmaBufferWriteOffset" id="[0-9]*"' "$spec_new" | sed 's/.*id="\([0-9]*\)"/\1/')

"$ddigen" trace "$work/new.cbor" --spec "$spec_new" >"$work/new.txt" || fail "trace of a good file failed"
has "the call is named from the spec" "$work/new.txt" "call 0 @0: DXGKDDI_BUILDPAGINGBUFFER in DXGKARG_BUILDPAGINGBUFFER"
has "nested fields are named by their path" "$work/new.txt" "Fill.FillPattern [$id_fp] = $((1000 + id_fp))"
has "enums are named" "$work/new.txt" "Operation [5] = 1 (0x1) DXGK_OPERATION_FILL"
has "the second call is the out direction" "$work/new.txt" "DXGKDDI_BUILDPAGINGBUFFER out"
has "the documented rules were checked, none broken" "$work/new.txt" "; rules checked {"
# Operation 99: no case of the discriminator. The validators' evaluator
# (gen/rules, through gen/trace/rules_hook.c) flags it at the field.
python3 - "$work/new.cbor" "$work/bad-op.cbor" <<'PY'
import sys
b = open(sys.argv[1], "rb").read()
at = b.index(b"\x05\x01")  # key 5 (Operation) = 1 in the first call
open(sys.argv[2], "wb").write(b[:at] + b"\x05\x18\x63" + b[at + 2:])
PY
"$ddigen" trace "$work/bad-op.cbor" --spec "$spec_new" >"$work/bad-op.txt" || fail "trace of a call that breaks a rule failed"
has "a broken rule is counted on the call" "$work/bad-op.txt" "rules checked, violations: 1 {"
has "a broken rule is shown at its field" "$work/bad-op.txt" \
    "Operation [5] = 99 (0x63)   ! breaks DXGKARG_BUILDPAGINGBUFFER.Operation:known-value"

"$ddigen" trace "$work/new.cbor" --spec "$spec_old" >"$work/new-old-spec.txt" || fail "trace with the older spec failed"
has "a field of a newer release is shown as unknown" "$work/new-old-spec.txt" "? [$id_wo] = $((1000 + id_wo))   (a field this spec does not know)"
"$ddigen" trace "$work/old.cbor" --spec "$spec_new" --ddi-version WDDM3_2 >"$work/old-v32.txt" || fail "--ddi-version failed"
has "--ddi-version lists the field an older writer lacks" "$work/old-v32.txt" "missing: DmaBufferWriteOffset [$id_wo]"
"$ddigen" trace "$work/old.cbor" --spec "$spec_new" --ddi-version WDDM3_1 >"$work/old-v31.txt"
if grep -q "missing:" "$work/old-v31.txt"; then fail "at WDDM3_1 nothing is missing"; grep missing "$work/old-v31.txt"; else ok "at WDDM3_1 nothing is missing"; fi

"$ddigen" trace "$work/new.cbor" --spec "$spec_new" --format json -o "$work/new.json" || fail "json failed"
if python3 - "$work/new.json" "$id_fp" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
calls = d["calls"]
assert len(calls) == 2 and calls[0]["record"] == "DXGKARG_BUILDPAGINGBUFFER" and calls[1]["direction"] == "out"
assert calls[0]["rules"] == "checked" and calls[0]["violations"] == 0
fill = [f for f in calls[0]["fields"] if f.get("path") == "Fill"][0]
fp = [f for f in fill["value"] if f["id"] == int(sys.argv[2])][0]
assert fp["path"] == "Fill.FillPattern" and fp["value"] == 1000 + int(sys.argv[2])
op = [f for f in calls[0]["fields"] if f.get("path") == "Operation"][0]
assert op["enum"] == "DXGK_OPERATION_FILL"
PY
then ok "JSON output parses and names the same fields"; else fail "JSON output"; fi
"$ddigen" trace "$work/new.cbor" --spec "$spec_new" --format json -o "$work/new2.json"
cmp -s "$work/new.json" "$work/new2.json" && ok "output is deterministic" || fail "output differs between runs"

# Bad input: exit 1, a message with the offset, nothing written.
size=$(stat -c %s "$work/new.cbor")
head -c $((size - 3)) "$work/new.cbor" >"$work/cut.cbor"
"$ddigen" trace "$work/cut.cbor" --spec "$spec_new" -o "$work/cut.txt" 2>"$work/cut.err"; rc=$?
if [ $rc -eq 1 ] && [ ! -e "$work/cut.txt" ] && grep -q "cut.cbor: error: offset [0-9]*: " "$work/cut.err"; then
    ok "a truncated trace: exit 1, the offset named, nothing written"
else
    fail "a truncated trace (rc $rc)"; cat "$work/cut.err"
fi
printf '\x84\x01\x00\x19\xff\xff\xa0' >"$work/norecord.cbor"
"$ddigen" trace "$work/norecord.cbor" --spec "$spec_new" 2>"$work/norecord.err" >/dev/null; rc=$?
[ $rc -eq 1 ] && grep -q "record ID 65535 is not in the spec" "$work/norecord.err" &&
    ok "an unknown record ID is an error" || { fail "unknown record ID (rc $rc)"; cat "$work/norecord.err"; }
printf '\x84\x01\x00\x18\xbd\xa2\x02\x01\x02\x02' >"$work/dup.cbor"
"$ddigen" trace "$work/dup.cbor" --spec "$spec_new" 2>"$work/dup.err" >/dev/null; rc=$?
[ $rc -eq 1 ] && grep -q "key 2 given twice" "$work/dup.err" && ok "a duplicate key is an error" ||
    { fail "duplicate key (rc $rc)"; cat "$work/dup.err"; }
"$ddigen" trace "$work/new.cbor" --spec "$spec_new" --ddi-version NOPE 2>"$work/v.err" >/dev/null; rc=$?
[ $rc -eq 1 ] && grep -q "no DDI version 'NOPE'" "$work/v.err" && ok "an unknown version is an error" ||
    { fail "unknown version (rc $rc)"; cat "$work/v.err"; }
"$ddigen" trace "$work/new.cbor" --spec "$spec_new" --format xml 2>/dev/null >/dev/null; rc=$?
[ $rc -eq 2 ] && ok "a bad --format is a usage error" || fail "bad --format (rc $rc)"
echo "$failures failed"
[ $failures -eq 0 ]
