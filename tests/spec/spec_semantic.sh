#!/usr/bin/env bash
# Specs that pass the schema but no compiler could have measured (issue 10,
# item 3): every command that reads a spec refuses them with file:line: error
# at the offending element, exit 1, and writes nothing; the shapes a real
# layout has (version alternatives at one offset, unions, bit-fields sharing a
# unit, zero-length arrays at the end) are accepted.
#   spec_semantic.sh DDIGEN SOURCE_DIR WORK
set -u
ddigen=$1 src=$2 work=$3
rm -rf "$work" && mkdir -p "$work"
failures=0
ok() { echo "ok   $*"; }
fail() { echo "FAIL $*"; failures=$((failures + 1)); }

# A sound spec: line numbers below are those of this text.
cat > "$work/base.xml" <<'XML'
<?xml version="1.0" encoding="UTF-8"?>
<ddi-spec version="1">
  <layout>
    <arch name="x86" triple="i686-pc-windows-msvc" macro="_M_IX86"/>
    <arch name="x64" triple="x86_64-pc-windows-msvc" macro="_M_AMD64"/>
    <version name="DXGKDDI_INTERFACE_VERSION_A" short="A" value="0x10"/>
    <version name="DXGKDDI_INTERFACE_VERSION_B" short="B" value="0x20"/>
    <record name="GADGET" kind="struct" tag="_GADGET" file="g.h" line="10">
      <size arch="x86" bytes="12" align="4"/>
      <size arch="x64" bytes="16" align="8"/>
      <field name="pData" path="pData" type="VOID *" line="11" canonical="void *">
        <offset arch="x86" bits="0"/>
        <offset arch="x64" bits="0"/>
      </field>
      <field name="Mode" path="Mode" type="UINT" bits="3" line="12" type-bytes="4" scalar="unsigned" canonical="unsigned int">
        <offset arch="x86" bits="32"/>
        <offset arch="x64" bits="64"/>
      </field>
      <field name="Spare" path="Spare" type="UINT" bits="29" line="13" type-bytes="4" scalar="unsigned" canonical="unsigned int">
        <offset arch="x86" bits="35"/>
        <offset arch="x64" bits="67"/>
      </field>
      <field name="Count" path="Count" type="UINT" line="14" versions="A" type-bytes="4" scalar="unsigned" canonical="unsigned int">
        <offset arch="x86" versions="A" bits="64"/>
        <offset arch="x64" versions="A" bits="96"/>
      </field>
      <field name="Total" path="Total" type="ULONG" line="15" versions="B" type-bytes="4" scalar="unsigned" canonical="unsigned long">
        <offset arch="x86" versions="B" bits="64"/>
        <offset arch="x64" versions="B" bits="96"/>
      </field>
      <field name="Tail" path="Tail" type="UCHAR" array="0" line="16" type-bytes="1" scalar="unsigned" canonical="unsigned char">
        <offset arch="x86" bits="96"/>
        <offset arch="x64" bits="128"/>
      </field>
    </record>
    <record name="PICK" kind="union" file="g.h" line="20">
      <size arch="x86" bytes="8" align="8"/>
      <size arch="x64" bytes="8" align="8"/>
      <field name="Whole" path="Whole" type="ULONGLONG" line="21" type-bytes="8" scalar="unsigned" canonical="unsigned long long">
        <offset arch="x86" bits="0"/>
        <offset arch="x64" bits="0"/>
      </field>
      <field name="Low" path="Low" type="UINT" line="22" type-bytes="4" scalar="unsigned" canonical="unsigned int">
        <offset arch="x86" bits="0"/>
        <offset arch="x64" bits="0"/>
      </field>
    </record>
    <enum name="SHADE" file="g.h" line="30">
      <value name="DARK" value="0"/>
      <value name="LIGHT" value="1" versions="A-B"/>
    </enum>
  </layout>
</ddi-spec>
XML

if "$ddigen" validate "$work/base.xml" 2>"$work/err.txt"; then ok "a sound spec validates"
else fail "a sound spec is refused:"; cat "$work/err.txt"; fi

# case NAME LINE EXPECTED-TEXT SED-SCRIPT: the base with one change, refused
# by validate at LINE.
case_() {
    local name=$1 line=$2 text=$3 script=$4
    sed "$script" "$work/base.xml" > "$work/$name.xml"
    cmp -s "$work/$name.xml" "$work/base.xml" && { fail "$name: the sed script changed nothing"; return; }
    "$ddigen" validate "$work/$name.xml" > "$work/out.txt" 2>&1
    local rc=$?
    if [ $rc -ne 1 ]; then fail "$name: exit $rc, wanted 1"; cat "$work/out.txt"; return; fi
    if grep -qF -- "$name.xml:$line: error: $text" "$work/out.txt"; then ok "$name"
    else fail "$name: wanted '$name.xml:$line: error: $text' in:"; cat "$work/out.txt"; fi
}
case_ bits-wider-than-type 15 "bit-field width 4096 is wider than its type UINT (32 bits)" '15s/bits="3"/bits="4096"/'
case_ bits-wider-than-64 19 "bit-field width 65 is wider than its type X (64 bits)" '19s/type="UINT" bits="29"/type="X" bits="65"/; 19s/type-bytes="4" scalar="unsigned" canonical="unsigned int"/canonical="struct X"/'
case_ offset-past-size 24 "Count ends at bit 128 on x86, past the end of GADGET (12 bytes)" '24s/bits="64"/bits="96"/'
case_ bitfield-past-size 21 "Spare ends at bit 132 on x64, past the end of GADGET (16 bytes)" '21s/bits="67"/bits="103"/'
case_ offset-not-on-byte 24 "offset of Count at bit 68 is not on a byte" '24s/bits="64"/bits="68"/'
case_ align-zero 10 'align="0" is not a power of two' '10s/align="8"/align="0"/'
case_ align-three 9 'align="3" is not a power of two' '9s/align="4"/align="3"/'
case_ size-not-multiple-of-align 9 "size 12 bytes is not a multiple of its alignment 8" '9s/align="4"/align="8"/'
case_ overlap 20 "Spare (bits 32-60) overlaps Mode (bits 32-34) on x86 in struct GADGET" '20s/bits="35"/bits="32"/'
case_ overlap-where-versions-meet 28 "Total (bits 64-95) overlaps Count (bits 64-95) on x86 in struct GADGET" '27,29s/versions="B"/versions="A-B"/g'
case_ reversed-range 50 "reversed version range 'B-A'" '50s/A-B/B-A/'
case_ unknown-version 23 "unknown version 'C' in versions=\"C\"" '23,25s/versions="A"/versions="C"/g'
case_ unknown-arch 12 "architecture 'arm64' is not one of the layout's <arch>s" '12s/arch="x86"/arch="arm64"/'
case_ second-size 10 "second <size> for x86 in versions already given" '10s/arch="x64"/arch="x86"/'
case_ second-offset 29 "second <offset> for x64 in versions already given" '28s/arch="x86"/arch="x64"/'
# Names the generated C would define twice (issue 24).
case_ record-twice 36 "record GADGET is listed twice (also at line 8)" '36s/name="PICK"/name="GADGET"/'
case_ enum-named-as-record 48 "enum PICK is listed twice (also at line 36)" '48s/name="SHADE"/name="PICK"/'
case_ same-c-identifier 36 "record GAD_GET and GAD.GET (line 8) are the same C identifier GAD_GET" '8s/name="GADGET"/name="GAD.GET"/; 36s/name="PICK"/name="GAD_GET"/'
case_ tag-twice 36 "tag _GADGET is listed twice (also at line 8)" '36s/kind="union"/kind="union" tag="_GADGET"/'

# A rule kind no table lists (docs.rng takes any word; the kinds are listed
# once, in gen/model/rule_kinds.h): refused at the rule.
"$ddigen" docs -q "$src/tests/fixtures/docs" -o "$work/docs.xml" || fail "docs of the fixture pages"
sed '0,/kind="reserved-zero"/s//kind="sideways"/' "$work/docs.xml" >"$work/bad-kind.xml"
line=$(grep -n 'kind="sideways"' "$work/bad-kind.xml" | cut -d: -f1)
"$ddigen" validate "$work/bad-kind.xml" >"$work/out.txt" 2>&1
rc=$?
[ $rc -eq 1 ] && [ -n "$line" ] && grep -qF "bad-kind.xml:$line: error: rule kind 'sideways' is not one of ddigen's rule kinds" "$work/out.txt" &&
    ok "unknown rule kind refused at its line" || { fail "bad-kind: exit $rc"; cat "$work/out.txt"; }
"$ddigen" validate "$work/docs.xml" >"$work/out.txt" 2>&1 && ok "the fixture docs validate" || { fail "docs.xml refused"; cat "$work/out.txt"; }

# Two items sharing a stable ID in a spec with IDs: refused by every
# command (emit wrote a marshaller with a duplicate case value).
"$ddigen" spec -q --layout "$work/base.xml" -o "$work/with-ids.xml" || fail "spec --layout base.xml"
sed '/<field name="Mode"/s/ id="2"/ id="1"/' "$work/with-ids.xml" >"$work/shared-id.xml"
cmp -s "$work/with-ids.xml" "$work/shared-id.xml" && fail "shared-id: the sed script changed nothing"
line=$(grep -n '<field name="Mode"' "$work/shared-id.xml" | cut -d: -f1)
"$ddigen" emit --spec "$work/shared-id.xml" -o "$work/shared-id-out" >"$work/out.txt" 2>&1
rc=$?
[ $rc -eq 1 ] && grep -qF "shared-id.xml:$line: error: id 1 of field Mode" "$work/out.txt" && [ ! -e "$work/shared-id-out" ] &&
    ok "two fields sharing a stable ID: emit refuses at the second, writes nothing" || { fail "shared-id: exit $rc"; cat "$work/out.txt"; }

# The same input to every command that reads a spec: refused, nothing written.
bad=$work/offset-past-size.xml
expect_refused() { # name exit command...
    local name=$1 want=$2; shift 2
    "$@" > "$work/out.txt" 2>&1
    local rc=$?
    if [ $rc -eq "$want" ] && grep -qF "offset-past-size.xml:24: error:" "$work/out.txt"; then ok "$name refuses it"
    else fail "$name: exit $rc"; cat "$work/out.txt"; fi
}
expect_refused "emit" 1 "$ddigen" emit --spec "$bad" -o "$work/emitted"
[ -z "$(ls -A "$work/emitted" 2>/dev/null)" ] && ok "emit wrote no C" || fail "emit wrote C from an impossible spec"
expect_refused "diff (old)" 1 "$ddigen" diff "$bad" "$work/base.xml"
expect_refused "diff (new)" 1 "$ddigen" diff "$work/base.xml" "$bad"
expect_refused "spec --layout" 1 "$ddigen" spec -q --layout "$bad" -o "$work/spec.xml"
expect_refused "spec --previous" 1 "$ddigen" spec -q --layout "$work/base.xml" --previous "$bad" -o "$work/spec.xml"
# lint: exit 2 is its documented "unreadable input".
expect_refused "lint" 2 "$ddigen" lint "$bad"
[ ! -e "$work/spec.xml" ] && ok "no spec written" || fail "a spec was written"

# A DOCTYPE (its internal entities could expand without bound) is refused
# at its line, before any expansion (issue 10, item 7).
{ echo '<?xml version="1.0" encoding="UTF-8"?>'; echo '<!DOCTYPE ddi-spec [<!ENTITY e "GADGET">]>'
  sed 1d "$work/base.xml" | sed 's/name="GADGET"/name="\&e;"/'; } > "$work/entity.xml"
"$ddigen" validate "$work/entity.xml" > "$work/out.txt" 2>&1
rc=$?
[ $rc -eq 1 ] && grep -qF "entity.xml:2: error: a DOCTYPE is not allowed here" "$work/out.txt" &&
    ok "a spec with a DOCTYPE and an internal entity is refused" || { fail "DOCTYPE: exit $rc"; cat "$work/out.txt"; }

# Large and still linear: 20,000 fields in one struct validate.
python3 - "$work/wide.xml" <<'PY'
import sys
n = 20000
out = ['<?xml version="1.0" encoding="UTF-8"?>', '<ddi-spec version="1">', '  <layout>',
       '    <arch name="x64" triple="x86_64-pc-windows-msvc" macro="_M_AMD64"/>',
       '    <version name="V_A" short="A" value="0x10"/>',
       '    <record name="WIDE" kind="struct" file="w.h" line="1">',
       '      <size arch="x64" bytes="%d" align="4"/>' % (4 * n)]
for i in range(n):
    out.append('      <field name="F%d" path="F%d" type="UINT" line="%d" canonical="unsigned int"><offset arch="x64" bits="%d"/></field>' % (i, i, i + 2, 32 * i))
out += ['    </record>', '  </layout>', '</ddi-spec>']
open(sys.argv[1], "w").write("\n".join(out) + "\n")
PY
"$ddigen" validate "$work/wide.xml" && ok "a struct of 20,000 fields validates" || fail "wide struct refused"

echo "$failures failed"
[ $failures -eq 0 ]
