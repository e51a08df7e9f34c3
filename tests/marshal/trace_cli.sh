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
# Strict means strict (issue 24): each malformed call below exits 1 with
# nothing written and names the call, the offset and the key path; the
# generated decoders refuse the same records (marshal_roundtrip).
rid=$(grep -o '<record name="DXGKARG_BUILDPAGINGBUFFER" id="[0-9]*"' "$spec_new" | sed 's/.*id="\([0-9]*\)"/\1/')
python3 - "$work" "$rid" <<'PY'
import os, sys
work, rid = sys.argv[1], int(sys.argv[2])
def head(major, v):
    if v < 24: return bytes([major << 5 | v])
    for ai, w in ((24, 1), (25, 2), (26, 4), (27, 8)):
        if v < (1 << (8 * w)): return bytes([major << 5 | ai]) + v.to_bytes(w, 'big')
u = lambda v: head(0, v)
neg = lambda a: head(1, a)  # -1 - a
by = lambda x: head(2, len(x)) + x
tx = lambda x: head(3, len(x)) + (x.encode() if isinstance(x, str) else x)
arr = lambda *i: head(4, len(i)) + b''.join(i)
mp = lambda *p: head(5, len(p)) + b''.join(k + v for k, v in p)
def nest(k):
    x = u(0)
    for _ in range(k): x = arr(x)
    return x
bad = {
  'dup-in-unknown-map': mp((u(300), mp((u(1), u(1)), (u(1), u(2))))),
  'dup-bytes-key-deep': mp((u(300), arr(mp((by(b'k'), u(1)), (by(b'k'), u(2)))))),
  'dup-unknown-small': mp((u(300), u(1)), (u(300), u(2))),
  'dup-unknown-64k': mp((u(65536), u(1)), (u(65536), u(2))),
  'dup-unknown-2p64': mp((u(2**64 - 1), u(1)), (u(2**64 - 1), u(2))),
  'op-bytes': mp((u(5), by(b'\x01')),),
  'op-text': mp((u(5), tx('a')),),
  'op-map': mp((u(5), mp()),),
  'op-array': mp((u(5), arr()),),
  'op-negative': mp((u(5), neg(2**40)),),
  'op-true': mp((u(5), b'\xf5'),),
  'op-null': mp((u(5), b'\xf6'),),
  'dmasize-2p32': mp((u(2), u(2**32)),),
  'dmasize-u64max': mp((u(2), u(2**64 - 1)),),
  'dmasize-negative': mp((u(2), neg(0)),),
  'fillpattern-bytes': mp((u(24), mp((u(27), by(b'ab')),)),),
  'deep-17': mp((u(300), nest(16)),),
  'text-not-utf8': mp((u(300), tx(b'\xff')),),
}
good = {
  'deep-16': mp((u(300), nest(15)),),
  'unknown-text': mp((u(300), tx('a"b\n\\c\x01')),),
  'unknown-bytes-keyed': mp((u(300), mp((by(b'\x01"'), u(1)),)),),
  'unknown-map-keyed': mp((u(300), mp((mp(), u(1)), (arr(), tx('x')))),),
}
ok_call = arr(u(0x1234), u(0), u(rid), mp((u(2), u(8)),))
for name, m in list(bad.items()) + list(good.items()):
    # a good call first: the error is in call 1
    open(os.path.join(work, 'p-' + name + '.cbor'), 'wb').write(ok_call + arr(u(0x1234), u(0), u(rid), m))
PY
R=DXGKARG_BUILDPAGINGBUFFER
probe() { # name expected-message-regex
    "$ddigen" trace "$work/p-$1.cbor" --spec "$spec_new" -o "$work/p-$1.txt" 2>"$work/p-$1.err"; rc=$?
    if [ $rc -eq 1 ] && [ ! -e "$work/p-$1.txt" ] && grep -qE -- "p-$1.cbor: error: offset [0-9]+: call 1: $2" "$work/p-$1.err"; then
        ok "malformed $1: exit 1, '$2'"
    else
        fail "malformed $1 (rc $rc)"; cat "$work/p-$1.err"
    fi
}
probe dup-in-unknown-map "duplicate key at $R\.\?300\.\?1 \(key path 300\.1\)"
probe dup-bytes-key-deep "duplicate key at $R\.\?300\[0\] \(key path 300\[0\]\)"
probe dup-unknown-small "key 300 given twice in one map at $R\.\?300 \(key path 300\)"
probe dup-unknown-64k "key 65536 given twice in one map at $R\.\?65536 \(key path 65536\)"
probe dup-unknown-2p64 "key 18446744073709551615 given twice in one map"
for k in bytes text map array true null; do probe op-$k "type mismatch at $R\.Operation \(key path 5\)"; done
probe op-negative "length or value too large at $R\.Operation \(key path 5\)"
probe dmasize-2p32 "length or value too large at $R\.DmaSize \(key path 2\)"
probe dmasize-u64max "length or value too large at $R\.DmaSize \(key path 2\)"
probe dmasize-negative "type mismatch at $R\.DmaSize \(key path 2\)"
probe fillpattern-bytes "type mismatch at $R\.Fill\.FillPattern \(key path 24\.27\)"
probe deep-17 "nested too deeply at $R\.\?300(\[0\]){15} "
probe text-not-utf8 "text string not valid UTF-8 at $R\.\?300 "

# What is accepted prints as valid JSON, whatever the unknown values hold,
# and so does a trace whose file name has a quote and a newline.
for g in deep-16 unknown-text unknown-bytes-keyed unknown-map-keyed; do
    "$ddigen" trace "$work/p-$g.cbor" --spec "$spec_new" --format json -o "$work/p-$g.json" 2>"$work/p-$g.err" ||
        { fail "$g: exit $?"; cat "$work/p-$g.err"; continue; }
    if python3 -c 'import json, sys; d = json.load(open(sys.argv[1])); assert len(d["calls"]) == 2' "$work/p-$g.json"; then
        ok "$g: accepted, valid JSON"
    else
        fail "$g: invalid JSON"; head -c 600 "$work/p-$g.json"
    fi
done
python3 - "$work/p-unknown-text.json" "$work/p-unknown-map-keyed.json" <<'PY' && ok "unknown text and maps keep their values in JSON" || fail "unknown values in JSON"
import json, sys
a = json.load(open(sys.argv[1]))["calls"][1]["fields"][0]
assert a == {"id": 300, "unknown": True, "value": {"text": 'a"b\n\\c\x01'}}, a
b = json.load(open(sys.argv[2]))["calls"][1]["fields"][0]["value"]
assert b == {"map": [[{"map": []}, 1], [[], {"text": "x"}]]}, b
PY
odd="$work/q\"uo
te.cbor"
cp "$work/new.cbor" "$odd"
"$ddigen" trace "$odd" --spec "$spec_new" --format json -o "$work/odd.json" &&
    python3 -c 'import json, sys; assert json.load(open(sys.argv[1]))["trace"] == sys.argv[2]' "$work/odd.json" "$odd" &&
    ok "a trace path with a quote and a newline is valid JSON" || fail "trace path with a quote and a newline"
echo "$failures failed"
[ $failures -eq 0 ]
