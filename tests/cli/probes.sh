#!/usr/bin/env bash
# Every probe of issue 24 and of the earlier hardening, in one table: each
# probe runs one command over a work folder that already holds the outputs
# of a good run (a generated set, docs, layout, spec, lint, diff and trace
# outputs), and checks
#   - the exit status it must have (0, 1 for bad input, 2 for bad usage),
#   - no crash (no status above 2; no "internal error", sanitizer report or
#     core) and, when it fails, at least one "error:" line,
#   - on failure: every previous output byte-identical, with the same inode
#     and mtime, and no debris (staging folders, PATH.tmp.PID files);
#   - JSON outputs parse (python3 -m json.tool).
# The SIGKILL fault injection of output sets is cli_output_sets (>= 25
# trials); the kit matrix is realkit_*. This script prints one line per
# probe and the counts.
#   probes.sh DDIGEN SOURCE_DIR WORK
set -u
ddigen=$1 src=$2 work=$3
kit_a=$src/tests/fixtures/wdk/10.0.22621.0
kit_b=$src/tests/fixtures/wdk/10.0.26100.0
docs=$src/tests/fixtures/docs
lint_docs=$src/tests/fixtures/lint
rm -rf "$work" && mkdir -p "$work" && cd "$work" || exit 1
passed=0 failed=0
ok() { echo "ok   $*"; passed=$((passed + 1)); }
fail() { echo "FAIL $*"; failed=$((failed + 1)); }

# ---- the previous outputs -----------------------------------------------------
mkdir -p prev && "$ddigen" generate -q --wdk "$kit_a" --docs "$docs" -o OUT &&
    "$ddigen" docs -q --no-syntax "$docs" -o prev/docs.xml &&
    cp OUT/spec/layout.xml prev/layout.xml && cp OUT/spec/ddi.xml prev/spec.xml &&
    "$ddigen" lint -q OUT/spec/ddi.xml --sarif prev/lint.sarif >prev/lint.txt &&
    { "$ddigen" diff OUT/spec/ddi.xml OUT/spec/ddi.xml -o prev/diff.txt; true; } &&
    "$ddigen" emit -q --spec OUT/spec/ddi.xml --outputs asserts -o prev/emit || {
    echo "FAIL the previous outputs could not be made"
    exit 1
}
"$ddigen" generate -q --wdk "$kit_b" -o spec-b >/dev/null || { echo "FAIL kit B"; exit 1; }
spec_b=spec-b/spec/ddi.xml
echo "the user's notes" >OUT/NOTES.txt
state() { # every previous output: path, hash, inode, mtime; and debris
    find OUT prev -type f -print0 | sort -z | xargs -0 sha1sum
    find OUT prev -type f -print0 | sort -z | xargs -0 stat -c '%i %Y %n'
    find . -maxdepth 3 \( -name '.*.ddigen-*' -o -name '*.tmp.[0-9]*' \) -print | sort
}
state >state.ref

# probe RC LABEL COMMAND...: COMMAND runs from the work folder. A full disk
# is /dev/full, or a file size limit (ulimit -f) with SIGXFSZ ignored, so a
# write fails with EFBIG; the limit is set above what stderr takes.
probe() {
    local want=$1 label=$2
    shift 2
    "$@" >out.txt 2>err.txt </dev/null
    local rc=$? why=""
    [ "$rc" -eq "$want" ] || why="exit $rc, expected $want"
    [ -z "$why" ] && [ "$rc" -gt 2 ] && why="exit $rc"
    [ -z "$why" ] && grep -qE 'internal error|Sanitizer|\.c:[0-9]+:[0-9]+: runtime error:|Segmentation|core dumped' err.txt &&
        why="crash or internal error: $(grep -m1 -E 'internal error|Sanitizer|runtime error' err.txt)"
    [ -z "$why" ] && [ "$rc" -ne 0 ] && ! grep -q 'error' err.txt && why="no error message"
    if [ -z "$why" ] && [ "$rc" -ne 0 ] && ! state | cmp -s - state.ref; then
        why="a previous output changed: $(state | diff - state.ref | head -3 | tr '\n' ' ')"
    fi
    if [ -n "$why" ]; then
        fail "$label: $why"
        head -3 err.txt | sed 's/^/       /'
        state >state.ref # report each change once
    else
        ok "$label (exit $rc$([ "$rc" -ne 0 ] && echo ": $(grep -m1 -o 'error: .*' err.txt | cut -c1-80)"))"
    fi
}
gen_b() { "$ddigen" generate -q --wdk "$kit_b" "$@"; }
json_ok() { python3 -m json.tool "$1" >/dev/null 2>&1; }

# ---- inputs -------------------------------------------------------------------
echo "<broken" >bad.xml
printf '\x00\x01\x02binary\xff\xfe' >garbage.md
mkdir -p garbage-docs && cp "$docs"/*.md garbage-docs/ && cp garbage.md garbage-docs/zz-garbage.md
mkdir -p folder.xml folder.md
printf 'NoSuchCallback\n' >bad-list.txt
mkdir -p broken-templates && cp -r "$src"/templates/. broken-templates/ &&
    printf '<xsl:stylesheet version="1.0" xmlns:xsl="http://www.w3.org/1999/XSL/Transform"><xsl:template match="/"><xsl:value-of select="no-such-function()"/></xsl:template></xsl:stylesheet>\n' \
        >broken-templates/zz_broken.h.xsl
python3 - "$spec_b" <<'PY'
import re, sys
spec = open(sys.argv[1]).read()
# a record listed twice; two fields sharing a stable ID; an internal entity
m = re.search(r'(    <record name="DXGKARG_BUILDPAGINGBUFFER".*?\n    </record>\n)', spec, re.S)
open("twice.xml", "w").write(spec.replace(m.group(1), m.group(1) * 2))
ids = re.findall(r'<field name="[^"]*" id="(\d+)"', spec)
open("shared-id.xml", "w").write(spec.replace('id="%s"' % ids[1], 'id="%s"' % ids[0], 1))
open("entity.xml", "w").write(spec.replace('<ddi-spec', '<!DOCTYPE ddi-spec [<!ENTITY e "x">]>\n<ddi-spec', 1))
open("truncated.xml", "w").write(spec[: len(spec) // 2])
PY
# kits: a missing include, a header that is a folder, an error clang recovers from
cp -r "$kit_b" kit-missing && sed -i '0,/#include/s//#include <no_such_header.h>\n#include/' kit-missing/km/dispmprt.h
cp -r "$kit_b" kit-folder && rm kit-folder/km/wdm.h && mkdir kit-folder/km/wdm.h
cp -r "$kit_b" kit-error && printf 'typedef struct _BROKEN { UNKNOWN_TYPE x; } BROKEN;\n' >>kit-error/km/d3dkmddi.h
mkdir -p kit-none
# pages past the readers' bounds
python3 - <<'PY'
front = "---\nUID: NS:probe._P\ntitle: P structure (probe.h)\n---\n\n# P structure\n\n"
open("huge.md", "w").write(front + "## -struct-fields\n\n### -field A\n\n" + "x " * (2 << 20) + "\n")
open("deep.md", "w").write(front + ">" * 100 + " deep\n")
open("flow.md", "w").write("---\nUID: NS:probe._P\nk: " + "[" * 100 + "]" * 100 + "\n---\n\n# P structure\n")
open("wide.md", "w").write(front + "|" + "|".join("c" for _ in range(300)) + "|\n|" + "-|" * 300 + "\n")
open("badutf8.md", "w", encoding="latin-1").write(front + "## -struct-fields\n\n### -field A\n\nbad \xff\xfe byte\n")
open("empty.md", "w").write("\n\n")
open("wide.h", "w").write("#define DXGKDDI_INTERFACE_VERSION_A 0x1000\ntypedef struct _W {\n" +
                          "".join("  unsigned int F%d;\n" % i for i in range(1100)) + "} W;\n")
PY
# traces: a good call, then every kind of malformed one
python3 - "$spec_b" <<'PY'
import re, struct, sys
spec = open(sys.argv[1]).read()
rid = int(re.search(r'<record name="DXGKARG_BUILDPAGINGBUFFER" id="(\d+)"', spec).group(1))
i = spec.index('<record name="DXGKARG_BUILDPAGINGBUFFER"')
op = int(re.search(r'<field name="Operation" id="(\d+)"', spec[i:]).group(1))
size = int(re.search(r'<field name="DmaSize" id="(\d+)"', spec[i:]).group(1))  # a UINT
def head(major, v):
    if v < 24: return bytes([major << 5 | v])
    for extra, size in ((24, 1), (25, 2), (26, 4), (27, 8)):
        if v < 1 << (8 * size): return bytes([major << 5 | extra]) + v.to_bytes(size, "big")
def uint(v): return head(0, v)
def fnv(s):
    h = 0x811c9dc5
    for c in s.encode(): h = ((h ^ c) * 0x01000193) & 0xffffffff
    return h
def call(pairs, n=None):
    body = b"".join(k + v for k, v in pairs)
    return head(4, 4) + uint(fnv("DXGKDDI_BUILDPAGINGBUFFER")) + uint(0) + uint(rid) + head(5, len(pairs) if n is None else n) + body
K = uint(op)
cases = {
    "good": call([(K, uint(1))]),
    "truncated": call([(K, uint(1))])[:-1],
    "dup-key": call([(K, uint(1)), (K, uint(1))]),
    "dup-unknown": call([(K, uint(1)), (uint(60000), uint(1)), (uint(60000), uint(2))]),
    "dup-unknown-2^64": call([(K, uint(1)), (uint(2**64 - 1), uint(1)), (uint(2**64 - 1), uint(2))]),
    "dup-in-unknown-map": call([(K, uint(1)), (uint(60000), head(5, 2) + uint(1) + uint(1) + uint(1) + uint(2))]),
    "op-bytes": call([(K, head(2, 1) + b"\x01")]),
    "op-text": call([(K, head(3, 1) + b"1")]),
    "op-map": call([(K, head(5, 0))]),
    "op-array": call([(K, head(4, 0))]),
    "uint-negative": call([(K, uint(1)), (uint(size), head(1, 0))]),
    "op-true": call([(K, b"\xf5")]),
    "op-null": call([(K, b"\xf6")]),
    "uint-beyond-uint32": call([(K, uint(1)), (uint(size), uint(2**32))]),
    "enum-beyond-int32": call([(K, uint(2**32))]),
    "unknown-record": call([(K, uint(1))]).replace(uint(rid), uint(999999), 1),
    "too-deep": call([(K, uint(1)), (uint(60000), head(4, 1) * 200 + uint(0))]),
    "bad-utf8-text": call([(K, uint(1)), (uint(60000), head(3, 2) + b"\xff\xfe")]),
    "unknown-text": call([(K, uint(1)), (uint(60000), head(3, 5) + b'a"\n\\b')]),
    "unknown-bytes-keyed": call([(K, uint(1)), (uint(60000), head(5, 1) + head(2, 1) + b"\x00" + uint(1))]),
}
for name, data in cases.items():
    open("t-%s.cbor" % name, "wb").write(data)
PY
echo ok >prev/trace.txt
"$ddigen" trace t-good.cbor --spec "$spec_b" -o prev/trace.txt >/dev/null 2>&1 || fail "trace of a good call"
state >state.ref

# ---- generate: a failed run changes nothing in OUT ----------------------------------------
probe 1 "generate: --ddi-list names an unknown callback" gen_b --ddi-list bad-list.txt -o OUT
probe 1 "generate: --ddi-list file missing" gen_b --ddi-list no-such-list.txt -o OUT
probe 1 "generate: --overrides not XML" gen_b --overrides bad.xml -o OUT
probe 1 "generate: --overrides missing" gen_b --overrides no-such.xml -o OUT
probe 1 "generate: --previous not XML" gen_b --previous bad.xml -o OUT
probe 1 "generate: --previous is a folder" gen_b --previous folder.xml -o OUT
probe 1 "generate: --previous truncated" gen_b --previous truncated.xml -o OUT
probe 1 "generate: a garbage page among the docs" gen_b --docs garbage-docs -o OUT
probe 1 "generate: a broken template" gen_b --templates broken-templates -o OUT
probe 1 "generate: --werror with lint errors" gen_b --docs "$lint_docs" --werror -o OUT
probe 1 "generate: a full disk (file size limit)" bash -c 'trap "" XFSZ; ulimit -f 200; exec "$0" generate -q --wdk "$1" -o OUT' "$ddigen" "$kit_b"
probe 1 "generate: a kit with a missing include" "$ddigen" generate -q --wdk kit-missing -o OUT
grep -q 'kit-missing/km/dispmprt.h:[0-9]*: error: .no_such_header.h. file not found: expected' err.txt &&
    ok "  ... named at the including header's file:line with what was expected" || fail "  missing include: $(head -1 err.txt)"
probe 1 "generate: a kit whose header is a folder" "$ddigen" generate -q --wdk kit-folder -o OUT
grep -q 'ntddk.h:[0-9]*: error: #include <wdm.h> names a folder, not a header' err.txt &&
    ok "  ... named at file:line as a folder" || fail "  header that is a folder: $(head -1 err.txt)"
probe 1 "generate: a kit with an unknown header error" "$ddigen" generate -q --wdk kit-error -o OUT
grep -q 'd3dkmddi.h:[0-9]*:[0-9]*: error: unknown type name' err.txt && ok "  ... at its file:line:col" ||
    fail "  header error: $(head -1 err.txt)"
probe 1 "generate: --wdk folder missing" "$ddigen" generate -q --wdk no-such-kit -o OUT
probe 1 "generate: --wdk folder without km/" "$ddigen" generate -q --wdk kit-none -o OUT
probe 1 "generate: --header is a folder" "$ddigen" generate -q --header folder.md -o OUT
probe 1 "generate: -o is a file" "$ddigen" generate -q --wdk "$kit_b" -o prev/docs.xml
probe 1 "generate: a depfile target with a newline" gen_b --depfile dep.d -o $'OUT\nnl'
probe 1 "generate: a record of more than 1024 members" "$ddigen" generate -q --header wide.h -o OUT
probe 2 "generate: --ddi-version empty" gen_b --ddi-version "" -o OUT
probe 2 "generate: --ddi-version ,," gen_b --ddi-version ,, -o OUT
probe 1 "generate: --ddi-version unknown" gen_b --ddi-version WDDM9_9 -o OUT
probe 2 "generate: --ddi-version with an XPath quote" gen_b --ddi-version "WDDM3_1' or '1'='1" -o OUT
probe 2 "generate: --param scope=bogus" gen_b --param scope=bogus -o OUT
probe 2 "generate: --param with no value" gen_b --param scope -o OUT
probe 2 "generate: --ddi-list and --all" gen_b --ddi-list bad-list.txt --all -o OUT
probe 2 "generate: --driver-kind twice" gen_b --driver-kind full --driver-kind display-only -o OUT
probe 2 "generate: --driver-kind bogus" gen_b --driver-kind bogus -o OUT
probe 2 "generate: --outputs bogus" gen_b --outputs bogus -o OUT
probe 2 "generate: --arch bogus" gen_b --arch sparc -o OUT
probe 2 "generate: unknown option" gen_b --bogus -o OUT
probe 2 "generate: no -o" gen_b
probe 0 "generate: the same kit again (nothing changes)" "$ddigen" generate -q --wdk "$kit_a" --docs "$docs" -o OUT
# OUT/spec/ddi.xml is the stamp a build compares with its inputs: rewritten
state | grep -v ' OUT/spec/ddi.xml$' >state.now
grep -v ' OUT/spec/ddi.xml$' state.ref | cmp -s - state.now && ok "  ... every other file keeps its bytes, inode and mtime" ||
    fail "  a regeneration rewrote unchanged files"
[ "$(grep '^[0-9a-f]*  OUT/spec/ddi.xml$' state.ref)" = "$(sha1sum OUT/spec/ddi.xml)" ] &&
    ok "  ... and the spec (the stamp, rewritten) has the same bytes" || fail "  the spec changed"
state >state.ref

# ---- emit ------------------------------------------------------------------------------
probe 1 "emit: --spec is a folder" "$ddigen" emit -q --spec folder.xml -o prev/emit
probe 1 "emit: --spec not XML" "$ddigen" emit -q --spec bad.xml -o prev/emit
probe 1 "emit: --spec truncated" "$ddigen" emit -q --spec truncated.xml -o prev/emit
probe 1 "emit: a record listed twice" "$ddigen" emit -q --spec twice.xml -o prev/emit
probe 1 "emit: two fields sharing a stable ID" "$ddigen" emit -q --spec shared-id.xml -o prev/emit
probe 1 "emit: a DOCTYPE with an entity" "$ddigen" emit -q --spec entity.xml -o prev/emit
probe 1 "emit: a broken template" "$ddigen" emit -q --spec "$spec_b" --templates broken-templates -o prev/emit
probe 1 "emit: a full disk (file size limit)" bash -c 'trap "" XFSZ; ulimit -f 20; exec "$0" emit -q --spec "$1" -o prev/emit' "$ddigen" "$spec_b"
probe 1 "emit: --ddi-version unknown, one line" "$ddigen" emit -q --spec "$spec_b" --ddi-version WDDM9_9 -o prev/emit
[ "$(grep -c . err.txt)" -le 2 ] && ok "  ... one message, not an XSLT flood" || fail "  $(grep -c . err.txt) lines of errors"
probe 2 "emit: --ddi-version with an XPath quote" "$ddigen" emit -q --spec "$spec_b" --ddi-version "WDDM3_1' or '1'='1" -o prev/emit
probe 2 "emit: --param scope=bogus" "$ddigen" emit -q --spec "$spec_b" --param scope=bogus -o prev/emit
probe 2 "emit: --ddi-list and --all" "$ddigen" emit -q --spec "$spec_b" --ddi-list bad-list.txt --all -o prev/emit
probe 2 "emit: unknown option" "$ddigen" emit -q --bogus --spec "$spec_b" -o prev/emit
probe 2 "emit: a missing option value" "$ddigen" emit -q --spec

# ---- docs ------------------------------------------------------------------------------
probe 1 "docs: a binary page" "$ddigen" docs -q --no-syntax garbage.md -o prev/docs.xml
probe 1 "docs: a page above 4 MiB" "$ddigen" docs -q --no-syntax huge.md -o prev/docs.xml
probe 1 "docs: quotes 100 deep" "$ddigen" docs -q --no-syntax deep.md -o prev/docs.xml
probe 1 "docs: front matter flow 100 deep" "$ddigen" docs -q --no-syntax flow.md -o prev/docs.xml
probe 1 "docs: a table row of 300 cells" "$ddigen" docs -q --no-syntax wide.md -o prev/docs.xml
probe 1 "docs: invalid UTF-8" "$ddigen" docs -q --no-syntax badutf8.md -o prev/docs.xml
probe 1 "docs: an empty page" "$ddigen" docs -q --no-syntax empty.md -o prev/docs.xml
probe 1 "docs: a folder with no pages" "$ddigen" docs -q --no-syntax folder.md -o prev/docs.xml
probe 1 "docs: a page that does not exist" "$ddigen" docs -q --no-syntax no-such.md -o prev/docs.xml
probe 1 "docs: a full stdout" bash -c 'exec "$0" docs -q --no-syntax "$1" -o - >/dev/full' "$ddigen" "$docs"
probe 1 "docs: a full disk (file size limit)" bash -c 'trap "" XFSZ; ulimit -f 4; exec "$0" docs -q --no-syntax "$1" -o prev/docs.xml' "$ddigen" "$docs"
probe 2 "docs: no -o" "$ddigen" docs -q "$docs"

# ---- layout, spec, validate, lint, diff --------------------------------------------------
probe 1 "layout: a missing include" "$ddigen" layout -q --wdk kit-missing -o prev/layout.xml
probe 1 "layout: a header that is a folder" "$ddigen" layout -q --wdk kit-folder -o prev/layout.xml
probe 1 "layout: --record unknown" "$ddigen" layout -q --wdk "$kit_b" --arch x64 --record NO_SUCH_RECORD -o prev/layout.xml
probe 1 "layout: a full disk (file size limit)" bash -c 'trap "" XFSZ; ulimit -f 20; exec "$0" layout -q --wdk "$1" --arch x64 -o prev/layout.xml' "$ddigen" "$kit_b"
probe 2 "layout: --ddi-version empty" "$ddigen" layout -q --wdk "$kit_b" --ddi-version "" -o prev/layout.xml
probe 1 "spec: --layout not XML" "$ddigen" spec -q --layout bad.xml -o prev/spec.xml
probe 1 "spec: --layout is a folder" "$ddigen" spec -q --layout folder.xml -o prev/spec.xml
probe 1 "spec: --docs truncated" "$ddigen" spec -q --layout prev/layout.xml --docs truncated.xml -o prev/spec.xml
probe 1 "spec: --overrides not XML" "$ddigen" spec -q --layout prev/layout.xml --overrides bad.xml -o prev/spec.xml
probe 1 "spec: --previous not XML" "$ddigen" spec -q --layout prev/layout.xml --previous bad.xml -o prev/spec.xml
probe 1 "spec: a DOCTYPE with an entity" "$ddigen" spec -q --layout entity.xml -o prev/spec.xml
probe 1 "validate: a record listed twice" "$ddigen" validate twice.xml
probe 1 "validate: two fields sharing a stable ID" "$ddigen" validate shared-id.xml
probe 1 "validate: truncated" "$ddigen" validate truncated.xml
probe 1 "validate: a DOCTYPE with an entity" "$ddigen" validate entity.xml
# lint's exit status: 1 says error-level findings, 2 that it could not do its job
probe 2 "lint: spec not XML" "$ddigen" lint -q bad.xml --sarif prev/lint.sarif
probe 2 "lint: --sarif is a folder" "$ddigen" lint -q "$spec_b" --sarif folder.xml
probe 2 "lint: a full disk for --sarif" "$ddigen" lint -q "$spec_b" --sarif /dev/full
probe 2 "lint: a full disk for the findings" "$ddigen" lint -q "$spec_b" -o /dev/full
probe 1 "diff: a full disk" "$ddigen" diff "$spec_b" prev/spec.xml -o /dev/full
probe 1 "layout: a full stdout" bash -c 'exec "$0" layout -q --wdk "$1" --arch x64 -o - >/dev/full' "$ddigen" "$kit_b"
probe 1 "diff: a spec that is not XML" "$ddigen" diff bad.xml "$spec_b" -o prev/diff.txt
probe 1 "diff: a truncated spec" "$ddigen" diff "$spec_b" truncated.xml -o prev/diff.txt

# ---- trace: strict means strict --------------------------------------------------------
for t in truncated dup-key dup-unknown dup-unknown-2^64 dup-in-unknown-map op-bytes op-text op-map op-array \
    uint-negative op-true op-null uint-beyond-uint32 enum-beyond-int32 unknown-record too-deep bad-utf8-text; do
    probe 1 "trace: $t" "$ddigen" trace "t-$t.cbor" --spec "$spec_b" -o prev/trace.txt
    grep -q 'offset [0-9]*: call 0: ' err.txt && ok "  ... says where (byte offset and call)" || fail "  trace $t: no place in $(head -1 err.txt)"
done
probe 1 "trace: a full disk" "$ddigen" trace t-good.cbor --spec "$spec_b" -o /dev/full
probe 1 "trace: --spec not XML" "$ddigen" trace t-good.cbor --spec bad.xml -o prev/trace.txt
probe 2 "trace: --format bogus" "$ddigen" trace t-good.cbor --spec "$spec_b" --format bogus -o prev/trace.txt
probe 2 "trace: unknown option" "$ddigen" trace t-good.cbor --spec "$spec_b" --bogus
for t in good unknown-text unknown-bytes-keyed; do
    probe 0 "trace --format json: $t" "$ddigen" trace "t-$t.cbor" --spec "$spec_b" --format json -o "t-$t.json"
    json_ok "t-$t.json" && ok "  ... the JSON parses" || fail "  trace $t: invalid JSON"
done
cp t-good.cbor 't-"quote
line.cbor'
probe 0 "trace --format json: a path with a quote and a newline" "$ddigen" trace 't-"quote
line.cbor' --spec "$spec_b" --format json -o t-path.json
json_ok t-path.json && ok "  ... the JSON parses" || fail "  trace path: invalid JSON"

echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
