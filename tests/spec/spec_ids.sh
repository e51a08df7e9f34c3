#!/usr/bin/env bash
# Stable IDs across the two fixture releases: 22621 -> 26100 with --previous
# keeps every ID and gives new items max+1; back to 22621 retires the WDDM 3.2
# additions and a third run brings them back with their old IDs; a renumbered
# or reused ID, a previous spec without IDs or with a duplicate ID -> clear
# errors with file:line.
#   spec_ids.sh DDIGEN SOURCE_DIR WORK
set -u
ddigen=$1 src=$2 work=$3
mkdir -p "$work"
snap=$src/spec/snapshots
failures=0
ok() { echo "ok   $1"; }
fail() { echo "FAIL $1"; failures=$((failures + 1)); }
expect_error() { # name expected-text command...
    local name=$1 text=$2; shift 2
    "$@" > "$work/out.txt" 2>&1 && { fail "$name: exit status 0"; return; }
    grep -qF -- "$text" "$work/out.txt" && ok "$name" || { fail "$name: no '$text' in:"; cat "$work/out.txt"; }
}
"$ddigen" spec -q --layout "$snap/wdk-10.0.22621.0.layout.xml" -o "$work/old.xml" || fail "spec 22621"
"$ddigen" spec -q --layout "$snap/wdk-10.0.26100.0.layout.xml" --previous "$work/old.xml" -o "$work/new.xml" || fail "spec 26100"
"$ddigen" spec -q --layout "$snap/wdk-10.0.22621.0.layout.xml" --previous "$work/new.xml" -o "$work/back.xml" || fail "spec back"
"$ddigen" spec -q --layout "$snap/wdk-10.0.26100.0.layout.xml" --previous "$work/back.xml" -o "$work/again.xml" || fail "spec again"
python3 - "$work" <<'PY' || failures=$((failures + 1))
import sys, xml.etree.ElementTree as ET
w = sys.argv[1]
def ids(f):
    root = ET.parse(f).getroot(); L = root.find('layout'); d = {}
    for top in L.findall('record'):
        for r in top.iter('record'): d[('record', r.get('name'))] = int(r.get('id'))
        seen = {}
        for f_ in top.iter('field'):
            nested = f_.find('record')
            k = ('@' + nested.get('name')) if f_.get('name') == '' and nested is not None else (f_.get('path'), f_.get('type'), f_.get('bits'))
            seen[k] = seen.get(k, 0) + 1
            d[('field', top.get('name'), k, seen[k])] = int(f_.get('id'))
    for e in L.findall('enum'):
        d[('enum', e.get('name'))] = int(e.get('id'))
        for v in e.findall('value'): d[('value', e.get('name'), v.get('name'))] = int(v.get('id'))
    retired = root.find('retired-ids')
    return d, (len(list(retired)) if retired is not None else 0)
old, _ = ids(f'{w}/old.xml'); new, r1 = ids(f'{w}/new.xml'); back, r2 = ids(f'{w}/back.xml'); again, r3 = ids(f'{w}/again.xml')
fails = 0
def check(c, what):
    global fails
    print(('ok   ' if c else 'FAIL ') + what); fails += 0 if c else 1
check(all(new[k] == v for k, v in old.items() if k in new), f'26100 keeps all {sum(k in new for k in old)} IDs of 22621')
check(set(old) <= set(new), 'every 22621 item is in 26100 (the fixture only adds)')
added = [k for k in new if k not in old]
mx = {}
for k, v in old.items():
    s = (k[0], k[1]) if k[0] in ('field', 'value') else (k[0],)
    mx[s] = max(mx.get(s, 0), v)
check(all(new[k] > mx.get((k[0], k[1]) if k[0] in ('field', 'value') else (k[0],), 0) for k in added),
      f'{len(added)} new items got IDs above the previous maximum of their scope')
check(r1 == 0 and r2 == len(added), f'going back retires exactly the {len(added)} additions ({r2} retired)')
check(back == old, 'going back keeps the 22621 IDs')
check(again == new and r3 == 0, 'the additions come back with their old IDs')
# unique within scopes
scopes = {}
for k, v in new.items():
    s = (k[0], k[1]) if k[0] in ('field', 'value') else (k[0],)
    scopes.setdefault(s, []).append(v)
check(all(len(v) == len(set(v)) for v in scopes.values()), 'IDs unique in every scope')
sys.exit(1 if fails else 0)
PY
"$ddigen" lint -q "$work/new.xml" --previous "$work/old.xml" -o /dev/null 2>"$work/l.txt" \
    && ok "lint --previous accepts a spec that kept the IDs" || { fail "lint --previous"; cat "$work/l.txt"; }
# a renumbered field
python3 - "$work/new.xml" "$work/renumbered.xml" <<'PY'
import sys
s = open(sys.argv[1]).read()
old = '<field name="DmaSize" id="2" path="DmaSize"'
assert old in s, 'fixture field not found'
open(sys.argv[2], 'w').write(s.replace(old, '<field name="DmaSize" id="4000" path="DmaSize"', 1))
PY
expect_error "renumbered field refused" "field DmaSize|UINT|- of DXGKARG_BUILDPAGINGBUFFER was renumbered: id 4000" \
    "$ddigen" lint -q "$work/renumbered.xml" --previous "$work/new.xml" -o /dev/null
line=$(grep -n 'id="4000"' "$work/renumbered.xml" | cut -d: -f1)
grep -q "renumbered.xml:$line: error" "$work/out.txt" && ok "renumbered error at the field's line ($line)" || fail "line of renumbered error"
# a reused ID (another record takes a retired one)
python3 - "$work/back.xml" "$work/reused.xml" <<'PY'
import sys, re
s = open(sys.argv[1]).read()
m = re.search(r'<record id="(\d+)" name="DXGK_BUILDPAGINGBUFFER_MAPMMU"/>', s)
s = s.replace('<record name="DXGK_ALLOCATIONINFO" id="', '<record name="DXGK_ALLOCATIONINFO" id="X', 1)
s = re.sub(r'id="X\d+"', f'id="{m.group(1)}"', s, count=1)
open(sys.argv[2], 'w').write(s)
PY
expect_error "previous spec reusing a retired ID refused" "a retired ID is never reused" \
    "$ddigen" spec -q --layout "$snap/wdk-10.0.26100.0.layout.xml" --previous "$work/reused.xml" -o "$work/x.xml"
expect_error "previous spec without IDs refused" "a previous spec must be one written by \`ddigen spec\`" \
    "$ddigen" spec -q --layout "$snap/wdk-10.0.26100.0.layout.xml" --previous "$snap/wdk-10.0.22621.0.layout.xml" -o "$work/x.xml"
[ ! -e "$work/x.xml" ] && ok "no output written on error" || fail "output written on error"
echo "$failures failed"
[ $failures -eq 0 ]
