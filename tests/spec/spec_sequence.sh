#!/usr/bin/env bash
# Stable IDs and diffs over a sequence of three kits
# (tests/fixtures/sequence: each release adds, removes, renames and re-gates
# items; see its README): spec of release N, then `generate --previous` for
# N+1 and N+2. IDs survive, retire and come back, and are never reused; the
# diff of N -> N+2 is the composition of N -> N+1 and N+1 -> N+2.
#   spec_sequence.sh DDIGEN SOURCE_DIR WORK
set -u
ddigen=$1 src=$2 work=$3
seq=$src/tests/fixtures/sequence
rm -rf "$work" && mkdir -p "$work"
failures=0 passed=0
fail() { echo "FAIL $*"; failures=$((failures + 1)); }
ok() { echo "ok   $*"; passed=$((passed + 1)); }

prev=()
for r in a:10.0.17763.0 b:10.0.19041.0 c:10.0.22000.0; do
    name=${r%%:*} kit=${r#*:}
    if "$ddigen" generate --wdk "$seq/$kit" "${prev[@]}" -q -o "$work/$name" 2>"$work/$name.err"; then
        ok "spec of $kit${prev:+ (--previous)}"
    else
        fail "spec of $kit:"; head -5 "$work/$name.err"
    fi
    prev=(--previous "$work/$name/spec/ddi.xml")
done
for pair in a:b b:c a:c; do
    o=${pair%%:*} n=${pair#*:}
    "$ddigen" diff --format json "$work/$o/spec/ddi.xml" "$work/$n/spec/ddi.xml" >"$work/$o-$n.json" 2>"$work/$o-$n.err"
    rc=$?
    if [ $((rc & 3)) -ne 0 ]; then fail "diff $o -> $n: exit $rc"; head -3 "$work/$o-$n.err"
    else ok "diff $o -> $n: IDs kept (exit $rc)"; fi
done

# The asserts of every kit compile as C and C++ at each of its versions and
# at its default (the named sub-type member of the newest kit included).
printf '#include <ntddk.h>\n#include <dispmprt.h>\n#include "ddi_layout_asserts.h"\n' >"$work/tu.c"
cp "$work/tu.c" "$work/tu.cpp"
for r in a:10.0.17763.0 b:10.0.19041.0 c:10.0.22000.0; do
    name=${r%%:*} kit=$seq/${r#*:}
    bad=0 n=0
    versions=$(grep -o '<version name="[A-Za-z0-9_]*"' "$work/$name/spec/ddi.xml" | sed 's/.*name="\(.*\)"/\1/')
    for a in i686:_X86_ x86_64:_AMD64_ aarch64:_ARM64_; do
        for v in $versions default; do
            vdef=-DDXGKDDI_INTERFACE_VERSION=$v
            [ "$v" = default ] && vdef=-DDDIGEN_KIT_DEFAULT
            for tu in "$work/tu.c" "$work/tu.cpp"; do
                n=$((n + 1))
                clang -fsyntax-only -target "${a%%:*}-pc-windows-msvc" -fms-extensions -fms-compatibility \
                    -fms-compatibility-version=19.38 -nostdlibinc -D"${a##*:}" -D_KERNEL_MODE "$vdef" \
                    -Wno-microsoft-anon-tag -I"$kit/km" -I"$kit/shared" -I"$work/$name/include" "$tu" \
                    >"$work/cc.txt" 2>&1 || { bad=$((bad + 1)); head -3 "$work/cc.txt"; }
            done
        done
    done
    [ $bad -eq 0 ] && ok "${r#*:}: asserts compile in $n configurations (C and C++)" || fail "${r#*:}: $bad of $n failed"
done

py=python3
"$py" - "$work" <<'PY' || failures=$((failures + 1))
import json, sys, xml.etree.ElementTree as ET
work = sys.argv[1]
bad = 0
def check(cond, what):
    global bad
    print(("ok   " if cond else "FAIL ") + what)
    bad += 0 if cond else 1

def book(path):
    """identity -> id for live items, and retired identity -> id."""
    root = ET.parse(path).getroot()
    live, retired = {}, {}
    for rec in root.find('layout').findall('record'):
        top = rec.get('name')
        seen = {}
        def walk(r):
            live[('record', r.get('name'))] = r.get('id')
            for f in r.findall('field'):
                nested = f.find('record')
                key = ('@' + nested.get('name')) if f.get('name') == '' and nested is not None else \
                      (f.get('path'), f.get('type'), f.get('bits'))
                seen[key] = seen.get(key, 0) + 1
                live[('field', top, key, seen[key])] = f.get('id')
                if nested is not None:
                    walk(nested)
        walk(rec)
    for e in root.find('layout').findall('enum'):
        live[('enum', e.get('name'))] = e.get('id')
        for v in e.findall('value'):
            k = ('value', e.get('name'), v.get('name'))
            assert live.get(k, v.get('id')) == v.get('id'), 'alternatives of %s differ' % (k,)
            live[k] = v.get('id')
    r = root.find('retired-ids')
    for n in (r if r is not None else []):
        if n.tag == 'field':
            key = ('@' + n.get('nested')) if n.get('nested') else (n.get('path'), n.get('type'), n.get('bits'))
            retired[('field', n.get('record'), key, int(n.get('occurrence', 1)))] = n.get('id')
        elif n.tag == 'value':
            retired[('value', n.get('enum'), n.get('name'))] = n.get('id')
        else:
            retired[(n.tag, n.get('name'))] = n.get('id')
    return live, retired

a, b, c = (book('%s/%s/spec/ddi.xml' % (work, x)) for x in 'abc')
kept = [k for k in a[0] if k in c[0]]
check(kept and all(a[0][k] == c[0][k] for k in kept), '%d items of the first kit keep their IDs two kits later' % len(kept))
check(all(a[0][k] == b[0][k] for k in a[0] if k in b[0]), 'items kept from the first to the second kit keep their IDs')
gone = ('record', 'SEQ_GONE')
check(b[1].get(gone) == a[0][gone] and c[0].get(gone) == a[0][gone] and gone not in c[1],
      'a record removed in the second kit is retired with its ID and gets it back in the third')
cookie = ('field', 'SEQ_GONE', ('Cookie', 'UINT', None), 1)
check(b[1].get(cookie) == a[0][cookie] == c[0].get(cookie), 'so do its fields')
old_bit = ('field', 'SEQ_FLAGS', ('Reserved0', 'UINT', '1'), 1)
new_bit = ('field', 'SEQ_FLAGS', ('UsePreemption', 'UINT', '1'), 1)
check(b[1].get(old_bit) == a[0][old_bit] and c[1].get(old_bit) == a[0][old_bit],
      'a renamed bit retires its old ID, and the retirement is carried to the next kit')
flags_ids = [int(v) for k, v in list(a[0].items()) + list(a[1].items()) if k[0] == 'field' and k[1] == 'SEQ_FLAGS']
check(int(b[0][new_bit]) > max(flags_ids) and c[0][new_bit] == b[0][new_bit],
      'the new name gets a new ID above every ID its record ever used')
check(b[1].get(('value', 'SEQ_MODE', 'SEQ_MODE_OLDFILL')) == a[0][('value', 'SEQ_MODE', 'SEQ_MODE_OLDFILL')],
      'a renamed enum value retires its old ID')
mx = ('value', 'SEQ_MODE', 'SEQ_MODE_MAX')
check(a[0][mx] == b[0][mx] == c[0][mx], 'an enumerator with a value per version keeps one ID across kits')
# never reused: one ID names one identity in every spec of the sequence
for scope in ('record', 'field', 'enum', 'value'):
    owner = {}
    clash = []
    for live, retired in (a, b, c):
        for k, v in list(live.items()) + list(retired.items()):
            if k[0] != scope:
                continue
            s = (k[1] if scope in ('field', 'value') else '', v)
            if owner.setdefault(s, k) != k:
                clash.append((s, owner[s], k))
    check(not clash, 'no %s ID is ever given to another %s %s' % (scope, scope, clash[:1] if clash else ''))

# diff composition
def changes(name):
    return {(c['kind'], c['item']): (c['change'], c['class']) for c in json.load(open('%s/%s.json' % (work, name)))['changes']}
ab, bc, ac = changes('a-b'), changes('b-c'), changes('a-c')
rank = {'compatible': 0, 'source-breaking': 1, 'ABI-breaking': 2}
def worst(*cs):
    return max(cs, key=lambda c: rank[c])
problems = []
def compose(first, second):
    """What a -> c must say of an item, from what each step says (None:
    nothing). An item removed and added back, or added and removed again,
    is no change; an item added and then changed is added; an item changed
    and then removed is removed; otherwise the worse of the two classes."""
    if not first or not second:
        return first or second
    if (first[0], second[0]) in (('removed', 'added'), ('added', 'removed')):
        return None
    if first[0] == 'added':
        return first
    if second[0] == 'removed':
        return second
    return (None, worst(first[1], second[1]))
for key in set(ab) | set(bc):
    first, second = ab.get(key), bc.get(key)
    want = compose(first, second)
    if want is None:
        if key in ac:
            problems.append('%s: the steps cancel out (%s / %s), but a -> c reports %s' % (key, first, second, ac[key]))
        continue
    if key not in ac:
        problems.append('%s changed (%s / %s) but a -> c does not report it' % (key, first, second))
        continue
    if want[0] and ac[key][0] != want[0]:
        problems.append('%s: a -> c says %s, the steps compose to %s' % (key, ac[key], want))
    want = want[1]
    if ac[key][1] != want:
        problems.append('%s: a -> c says %s, the steps compose to %s' % (key, ac[key][1], want))
for key in set(ac) - set(ab) - set(bc):
    problems.append('%s: a -> c reports %s, which neither step has' % (key, ac[key]))
check(not problems, 'a -> c is the composition of a -> b and b -> c (%d items)' % len(set(ab) | set(bc)))
for p in problems[:8]:
    print('     ' + p)

# what each construct must be classified as
check(ab.get(('record', 'SEQ_PACKET'), ('', ''))[1] == 'ABI-breaking', 'moving a record into #pragma pack(1) is an ABI break')
check(not any(k[1].startswith('SEQ_WINDOW.First') or k[1].startswith('SEQ_WINDOW.Count') for k in bc),
      'members moved into a named sub-type with the same layout and paths: no change')
check(bc.get(('record', '_SEQ_CURSOR')) == ('renamed', 'compatible') and ('field', 'SEQ_CURSOR.X') not in bc,
      'a tag that gains a typedef of the same struct is compatible')
check(not any(k[1] == 'SEQ_MODE::SEQ_MODE_MAX' for d in (ab, bc, ac) for k in d),
      'an enumerator whose value changes only in new versions is no change in the shared ones')
check(bc.get(('record', 'SEQ_QUEUE_INFO'), ('', ''))[0] == 'gate narrowed', 'a narrowed gate is reported')
sys.exit(1 if bad else 0)
PY
echo "$passed passed, $failures failed"
[ $failures -eq 0 ]
