#!/usr/bin/env bash
# Bad input to ddigen spec / lint: a spec that fails the schema, overrides
# that name nothing or fail their schema, missing arguments -> a clear
# file:line error and a non-zero exit, never a crash or a partial output.
#   spec_errors.sh DDIGEN SOURCE_DIR WORK
set -u
ddigen=$1 src=$2 work=$3
mkdir -p "$work"
layout=$src/spec/snapshots/wdk-10.0.26100.0.layout.xml
failures=0
expect() { # name status expected-text command...
    local name=$1 status=$2 text=$3; shift 3
    "$@" > "$work/out.txt" 2>&1
    local rc=$?
    if [ $rc -ne "$status" ]; then echo "FAIL $name: exit $rc, expected $status"; cat "$work/out.txt"; failures=$((failures + 1)); return; fi
    if grep -qF -- "$text" "$work/out.txt"; then echo "ok   $name"; else
        echo "FAIL $name: no '$text' in:"; cat "$work/out.txt"; failures=$((failures + 1)); fi
}
# A record listed twice: an error, so exit 1 and the old output kept (it
# used to print the error, exit 0 and write a spec without IDs).
python3 - "$layout" "$work/twice.xml" <<'PY'
import sys
s = open(sys.argv[1]).read()
start = s.index('    <record name="DXGK_PTE" ')
end = s.index('\n    </record>\n', start) + len('\n    </record>\n')
open(sys.argv[2], 'w').write(s[:end] + s[start:end] + s[end:])
PY
printf 'kept' > "$work/kept.xml"
expect "a record listed twice" 1 "record DXGK_PTE is listed twice" \
    "$ddigen" spec -q --layout "$work/twice.xml" -o "$work/kept.xml"
[ "$(cat "$work/kept.xml")" = kept ] && echo "ok   ... and the existing output is kept" ||
    { echo "FAIL a failed spec run replaced its output"; failures=$((failures + 1)); }
# (libxml2 gives an element the line where its start tag ends)
# a layout whose record lost its kind: schema error at the record's line
sed '0,/<record name="CM_FULL_RESOURCE_DESCRIPTOR" kind="struct"/s//<record name="CM_FULL_RESOURCE_DESCRIPTOR" kind="klass"/' \
    "$layout" > "$work/bad-kind.xml"
line=$(grep -n 'kind="klass"' "$work/bad-kind.xml" | cut -d: -f1)
expect "layout failing the schema" 1 "bad-kind.xml:$line: error:" \
    "$ddigen" spec -q --layout "$work/bad-kind.xml" -o "$work/x.xml"
# a non-integer id
sed 's/<record name="DXGK_PTE" /<record name="DXGK_PTE" id="seven" /' "$layout" > "$work/bad-id.xml"
line=$(grep -n 'id="seven"' "$work/bad-id.xml" | cut -d: -f1)
expect "id that is not a positive integer" 1 "bad-id.xml:$line: error:" "$ddigen" validate "$work/bad-id.xml"
printf '<ddi-spec version="1"><layout>' > "$work/truncated.xml"
expect "truncated spec" 1 "truncated.xml:1: error:" "$ddigen" spec -q --layout "$work/truncated.xml" -o "$work/x.xml"
cat > "$work/nothing.xml" <<'XML'
<?xml version="1.0" encoding="UTF-8"?>
<overrides version="1">
  <union-member enum="DXGK_NO_SUCH_OPERATION" value="DXGK_OPERATION_MAP_MMU"
                record="DXGKARG_BUILDPAGINGBUFFER" member="MmapMmu">
    <reason>Names an enum that no header declares.</reason>
  </union-member>
  <writes record="DXGKARG_NO_SUCH_RECORD" field="pDmaBuffer">
    <reason>Names a record that no header declares.</reason>
  </writes>
</overrides>
XML
expect "override naming no enum" 1 "nothing.xml:4: error: union-member override names nothing: no enum DXGK_NO_SUCH_OPERATION" \
    "$ddigen" spec -q --layout "$layout" --overrides "$work/nothing.xml" -o "$work/x.xml"
expect "override naming no record" 1 "nothing.xml:7: error: writes override names nothing: no record DXGKARG_NO_SUCH_RECORD" \
    "$ddigen" spec -q --layout "$layout" --overrides "$work/nothing.xml" -o "$work/x.xml"
cat > "$work/noreason.xml" <<'XML'
<?xml version="1.0" encoding="UTF-8"?>
<overrides version="1">
  <writes record="DXGKARG_BUILDPAGINGBUFFER" field="pDmaBuffer"/>
</overrides>
XML
expect "override without a reason" 1 "noreason.xml:3: error:" \
    "$ddigen" spec -q --layout "$layout" --overrides "$work/noreason.xml" -o "$work/x.xml"
[ ! -e "$work/x.xml" ] && echo "ok   no spec written on any error" || { echo "FAIL a spec was written"; failures=$((failures + 1)); }
expect "spec without --layout" 2 "spec needs --layout FILE and -o FILE" "$ddigen" spec -o "$work/x.xml"
expect "lint of a layout-only file" 2 "has no <merge> part" "$ddigen" lint "$layout"
expect "lint without input" 2 "lint needs SPEC.xml, or --layout and --docs" "$ddigen" lint
echo "$failures failed"
[ $failures -eq 0 ]
