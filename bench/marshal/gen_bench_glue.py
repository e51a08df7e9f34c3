#!/usr/bin/env python3
"""Writes, from the spec, the baselines of bench_marshal for a few records:
an equivalent .proto (one message per map level of the generated marshaller,
field numbers = the stable field IDs) and C glue that fills and reads those
messages (protobuf-c) and the same CBOR maps built and walked with libcbor;
and for nanopb the same messages in package `np` (so its C names do not
meet protobuf-c's in one translation unit), an .options file that gives
each bytes field its fixed size (nanopb allocates nothing) and its glue.
Bench-only: the product's marshallers come from templates/ddi_marshal.*.xsl.
The wire form of each field follows templates/include/marshal_common.xsl,
so all three carry the same data.
  gen_bench_glue.py SPEC.xml OUT_DIR RECORD..."""
import sys
import xml.etree.ElementTree as ET

spec_path, out_dir, names = sys.argv[1], sys.argv[2], sys.argv[3:]
root = ET.parse(spec_path).getroot()
layout = root.find('layout')
versions = [v.get('short') for v in layout.findall('version')]
LATEST = len(versions) - 1  # the kit default of the fixture release
records = {r.get('name'): r for r in layout.findall('record') if r.get('id') and not r.get('referenced')}
by_type = {}
for r in records.values():
    by_type['%s %s' % (r.get('kind'), r.get('tag'))] = r
    by_type[r.get('name')] = r
discs = {d.get('union'): d for d in root.iter('discriminator')}


def present(e):
    v = e.get('versions')
    if not v:
        return True
    for part in v.split():
        lo, _, hi = part.partition('-')
        if versions.index(lo) <= LATEST <= versions.index(hi or lo):
            return True
    return False


def canonical(f):
    c = f.get('canonical')
    if c is None:
        k = f.find('canonical')
        c = k.get('type') if k is not None else f.get('type')
    for q in ('volatile ', 'const '):
        if c.startswith(q) and '*' not in c:
            c = c[len(q):]
    return c


def klass(f):
    c = canonical(f)
    if f.get('array'):
        return 'raw'
    if '*' in c or '(' in c:
        return 'u'
    if c.startswith('enum '):
        return 's'
    if f.get('bits'):
        return 's' if c in ('char', 'short', 'int', 'long', 'long long') else 'u'
    if c.startswith('unsigned ') or c in ('_Bool', 'wchar_t'):
        return 'u'
    if c in ('char', 'signed char', 'short', 'int', 'long', 'long long'):
        return 's'
    if c in by_type:
        return 'rec'
    return 'raw'


levels = []  # (msg name, C type, entries)


class Entry:
    def __init__(self, fid, kind, path, sub=None, cases=None, sel=None, is_ptr=False, ctype=None, nbytes=0):
        self.fid, self.kind, self.path, self.sub, self.cases, self.sel, self.is_ptr = fid, kind, path, sub, cases, sel, is_ptr
        self.ctype, self.nbytes = ctype, nbytes


def raw_bytes(f):
    """Bytes of a field carried as a byte string: nanopb's max_size. The
    spec gives no size for pointer-sized elements (it differs by
    architecture): 8 then, the host's; the glue asserts it at compile time."""
    n = int(f.get('type-bytes') or 8)
    return n * int(f.get('array') or 1)


def level(rec, ctype, msg, prefix, top):
    """Entries of one map level (anonymous records flattened)."""
    entries = []

    def walk(r):
        if r.get('kind') == 'union' and r.get('name') in discs:
            d = discs[r.get('name')]
            sel = [f for f in top.iter('field') if f.get('id') == d.get('selector-id')][0]
            cases = []
            for c in d.findall('case'):
                if not present(c) or not c.get('field-id'):
                    continue
                m = [f for f in r.findall('field') if f.get('id') == c.get('field-id')]
                if m and present(m[0]):
                    cases.append((int(c.get('number')), field_entry(m[0])))
            entries.append(Entry(None, 'disc', None, cases=cases, sel=prefix + sel.get('path')))
            return
        for f in r.findall('field'):
            if not present(f):
                continue
            sub = f.find('record')
            if f.get('name') == '' and sub is not None:
                walk(sub)
            elif f.get('name') != '':
                entries.append(field_entry(f))

    def field_entry(f):
        sub = f.find('record')
        path = prefix + f.get('path')
        if sub is not None:
            name = '%sf%s' % (msg, f.get('id'))
            level(sub, ctype, name, prefix, top)
            return Entry(int(f.get('id')), 'msg', path, sub=name)
        k = klass(f)
        if k == 'rec':
            other = by_type[canonical(f)]
            name = '%sf%s' % (msg, f.get('id'))
            level(other, None, name, path + '.', other)
            return Entry(int(f.get('id')), 'msg', path, sub=name)
        c = canonical(f)
        t = f.get('type').strip()
        if t.endswith('*const'):
            t = t[:-5]
        return Entry(int(f.get('id')), k, path, is_ptr=('*' in c or '(' in c), ctype=t,
                     nbytes=raw_bytes(f) if k == 'raw' else 0)

    walk(rec)
    levels.append((msg, ctype, entries))


tops = []
for n in names:
    r = records[n]
    msg = 'Mrec%s' % r.get('id')
    level(r, n, msg, '', r)
    tops.append((n, msg))

# ---- .proto ----------------------------------------------------------------
def flat(entries):
    """The fields of a level, a discriminated union's cases in line."""
    out = []
    for e in entries:
        out += [c[1] for c in e.cases] if e.kind == 'disc' else [e]
    return out


def write_proto(path, package, oneofs):
    """oneofs: a discriminated union's cases as a oneof (cK, K its rank in
    the level), which nanopb stores as a C union with a which_cK tag
    instead of a member per case that every decode would initialize; the
    wire form is the same, one field for the case present."""
    proto = ['syntax = "proto3";', '// Generated by bench/marshal/gen_bench_glue.py from the spec; bench only.']
    if package:
        proto.append('package %s;' % package)

    def field(e, ind):
        t = {'u': 'uint64', 's': 'sint64', 'raw': 'bytes'}.get(e.kind, e.sub)
        proto.append('%s%s f%d = %d;' % (ind, t, e.fid, e.fid))
    for msg, _, entries in levels:
        proto.append('message %s {' % msg)
        for k, e in enumerate(entries):
            if e.kind == 'disc' and oneofs:
                proto.append('  oneof c%d {' % k)
                for c in e.cases:
                    field(c[1], '    ')
                proto.append('  }')
            else:
                for f in flat([e]):
                    field(f, '  ')
        proto.append('}')
    open(path, 'w').write('\n'.join(proto) + '\n')


write_proto('%s/bench_records.proto' % out_dir, None, False)
write_proto('%s/bench_records_np.proto' % out_dir, 'np', True)
options = ['# Generated by bench/marshal/gen_bench_glue.py: nanopb allocates nothing,',
           '# so every bytes field gets the size of the C field it carries.']
for msg, _, entries in levels:
    for e in flat(entries):
        if e.kind == 'raw':
            options.append('np.%s.f%d max_size:%d' % (msg, e.fid, e.nbytes))
open('%s/bench_records_np.options' % out_dir, 'w').write('\n'.join(options) + '\n')

# ---- C glue -----------------------------------------------------------------
def lower(m):
    return m.lower()


c = ['/* Generated by bench/marshal/gen_bench_glue.py from the spec; bench only. */',
     '#include "bench_records.pb-c.h"', '#include <cbor.h>', '#include <string.h>', '']
for msg, _, _ in levels:
    c.append('static void pb_put_%s(const void *top, %s *m);' % (msg, msg))
    c.append('static void pb_get_%s(const %s *m, void *top);' % (msg, msg))
    c.append('static cbor_item_t *cb_put_%s(const void *top);' % msg)
    c.append('static void cb_get_%s(const cbor_item_t *map, void *top);' % msg)
c.append('')
top_of = {}
for n, msg in tops:
    for m, _, _ in levels:
        if m.startswith(msg):
            top_of[m] = n


def expr(e, var):
    return '%s->%s' % (var, e.path)


for msg, _, entries in levels:
    T = top_of[msg]
    # protobuf-c: fill (submessages in static storage: the bench is single-threaded)
    c.append('static void pb_put_%s(const void *top, %s *m)\n{\n    const %s *a = (const %s *)top;' % (msg, msg, T, T))
    def pb_put(e, ind):
        out = []
        if e.kind == 'u':
            cast = '(uint64_t)(uintptr_t)' if e.is_ptr else '(uint64_t)'
            out.append('%sm->f%d = %s%s;' % (ind, e.fid, cast, expr(e, 'a')))
        elif e.kind == 's':
            out.append('%sm->f%d = (int64_t)%s;' % (ind, e.fid, expr(e, 'a')))
        elif e.kind == 'raw':
            out.append('%sm->f%d.len = sizeof(%s);' % (ind, e.fid, expr(e, 'a')))
            out.append('%sm->f%d.data = (uint8_t *)&%s;' % (ind, e.fid, expr(e, 'a')))
        elif e.kind == 'msg':
            out.append('%s{\n%s    static %s sub;\n%s    %s__init(&sub);\n%s    pb_put_%s(top, &sub);\n%s    m->f%d = &sub;\n%s}'
                       % (ind, ind, e.sub, ind, lower(e.sub), ind, e.sub, ind, e.fid, ind))
        return out
    for e in entries:
        if e.kind == 'disc':
            c.append('    switch ((long long)a->%s) {' % e.sel)
            for num, m in e.cases:
                c.append('    case %d:' % num)
                c += pb_put(m, '        ')
                c.append('        break;')
            c.append('    default:\n        break;\n    }')
        else:
            c += pb_put(e, '    ')
    c.append('}')
    c.append('static void pb_get_%s(const %s *m, void *top)\n{\n    %s *out = (%s *)top;' % (msg, msg, T, T))
    def pb_get(e, ind):
        out = []
        if e.kind in ('u', 's'):
            if e.is_ptr:
                out.append('%s%s = (%s)(uintptr_t)m->f%d;' % (ind, expr(e, 'out'), e.ctype, e.fid))
            else:
                out.append('%s%s = m->f%d;' % (ind, expr(e, 'out'), e.fid))
        elif e.kind == 'raw':
            out.append('%sif (m->f%d.len == sizeof(%s))\n%s    memcpy(&%s, m->f%d.data, m->f%d.len);'
                       % (ind, e.fid, expr(e, 'out'), ind, expr(e, 'out'), e.fid, e.fid))
        elif e.kind == 'msg':
            out.append('%sif (m->f%d)\n%s    pb_get_%s(m->f%d, top);' % (ind, e.fid, ind, e.sub, e.fid))
        return out
    for e in entries:
        for m in ([x[1] for x in e.cases] if e.kind == 'disc' else [e]):
            c += pb_get(m, '    ')
    c.append('}')
    # libcbor: build the same map, then walk it
    c.append('static cbor_item_t *cb_put_%s(const void *top)\n{\n    const %s *a = (const %s *)top;\n    size_t n = 0;' % (msg, T, T))
    for e in entries:
        if e.kind == 'disc':
            c.append('    switch ((long long)a->%s) {' % e.sel)
            for num, _ in e.cases:
                c.append('    case %d: n++; break;' % num)
            c.append('    default: break;\n    }')
        else:
            c.append('    n++;')
    c.append('    cbor_item_t *map = cbor_new_definite_map(n);')
    def cb_put(e, ind):
        key = 'cbor_move(cbor_build_uint%d(%d))' % (8 if e.fid < 256 else 16, e.fid)
        if e.kind == 'u':
            cast = '(uint64_t)(uintptr_t)' if e.is_ptr else '(uint64_t)'
            val = 'cbor_move(cbor_build_uint64(%s%s))' % (cast, expr(e, 'a'))
        elif e.kind == 's':
            val = 'cbor_move(bench_cbor_int((int64_t)%s))' % expr(e, 'a')
        elif e.kind == 'raw':
            val = 'cbor_move(cbor_build_bytestring((cbor_data)&%s, sizeof(%s)))' % (expr(e, 'a'), expr(e, 'a'))
        else:
            val = 'cbor_move(cb_put_%s(top))' % e.sub
        return ['%scbor_map_add(map, (struct cbor_pair){%s, %s});' % (ind, key, val)]
    for e in entries:
        if e.kind == 'disc':
            c.append('    switch ((long long)a->%s) {' % e.sel)
            for num, m in e.cases:
                c.append('    case %d:' % num)
                c += cb_put(m, '        ')
                c.append('        break;')
            c.append('    default:\n        break;\n    }')
        else:
            c += cb_put(e, '    ')
    c.append('    return map;\n}')
    c.append('static void cb_get_%s(const cbor_item_t *map, void *top)\n{\n    %s *out = (%s *)top;\n    struct cbor_pair *p = cbor_map_handle(map);' % (msg, T, T))
    c.append('    for (size_t i = 0; i < cbor_map_size(map); i++) {\n        const cbor_item_t *v = p[i].value;\n        switch (cbor_get_int(p[i].key)) {')
    for e in entries:
        for m in ([x[1] for x in e.cases] if e.kind == 'disc' else [e]):
            c.append('        case %d:' % m.fid)
            if m.kind in ('u', 's'):
                val = 'bench_cbor_get(v)'
                if m.is_ptr:
                    c.append('            %s = (%s)(uintptr_t)%s;' % (expr(m, 'out'), m.ctype, val))
                else:
                    c.append('            %s = %s;' % (expr(m, 'out'), val))
            elif m.kind == 'raw':
                c.append('            if (cbor_bytestring_length(v) == sizeof(%s))\n                memcpy(&%s, cbor_bytestring_handle(v), sizeof(%s));'
                         % (expr(m, 'out'), expr(m, 'out'), expr(m, 'out')))
            else:
                c.append('            cb_get_%s(v, top);' % m.sub)
            c.append('            break;')
    c.append('        default:\n            break;\n        }\n    }\n}')
for n, msg in tops:
    # The top message of a record by its name, and protobuf-c's function
    # names for it (record IDs differ between specs).
    c.append('#define BENCH_PB_%s %s' % (n, msg))
    for suffix, fn in (('init', '__init'), ('pack', '__pack'), ('unpack', '__unpack'), ('free', '__free_unpacked')):
        c.append('#define %s_%s_ %s%s' % (msg, suffix, lower(msg), fn))
open('%s/bench_glue.h' % out_dir, 'w').write('\n'.join(c) + '\n')

# ---- nanopb glue ------------------------------------------------------------
# The same fill and read as protobuf-c's, on nanopb's structures: submessages
# are members with a has_ flag, bytes fields arrays of their fixed size, a
# discriminated union's cases members of a C union chosen by which_cK.
n = ['/* Generated by bench/marshal/gen_bench_glue.py from the spec; bench only. */',
     '#include "bench_records_np.pb.h"', '#include <pb_decode.h>', '#include <pb_encode.h>', '#include <string.h>', '']
for msg, _, _ in levels:
    n.append('static void np_put_%s(const void *top, np_%s *m);' % (msg, msg))
    n.append('static void np_get_%s(const np_%s *m, void *top);' % (msg, msg))
n.append('')


def np_put(e, ind, where='m->'):
    """where: the structure that holds the field (m->cK. for a case)."""
    f = '%sf%d' % (where, e.fid)
    if e.kind == 'u':
        cast = '(uint64_t)(uintptr_t)' if e.is_ptr else '(uint64_t)'
        return ['%s%s = %s%s;' % (ind, f, cast, expr(e, 'a'))]
    if e.kind == 's':
        return ['%s%s = (int64_t)%s;' % (ind, f, expr(e, 'a'))]
    if e.kind == 'raw':
        return ['%s%s.size = sizeof(%s);' % (ind, f, expr(e, 'a')),
                '%smemcpy(%s.bytes, &%s, sizeof(%s));' % (ind, f, expr(e, 'a'), expr(e, 'a'))]
    has = [] if where != 'm->' else ['%sm->has_f%d = true;' % (ind, e.fid)]  # a case has which_ instead
    return has + ['%snp_put_%s(top, &%s);' % (ind, e.sub, f)]


def np_get(e, ind, where='m->'):
    f = '%sf%d' % (where, e.fid)
    if e.kind in ('u', 's'):
        if e.is_ptr:
            return ['%s%s = (%s)(uintptr_t)%s;' % (ind, expr(e, 'out'), e.ctype, f)]
        return ['%s%s = %s;' % (ind, expr(e, 'out'), f)]
    if e.kind == 'raw':
        return ['%sif (%s.size == sizeof(%s))\n%s    memcpy(&%s, %s.bytes, sizeof(%s));'
                % (ind, f, expr(e, 'out'), ind, expr(e, 'out'), f, expr(e, 'out'))]
    if where != 'm->':
        return ['%snp_get_%s(&%s, top);' % (ind, e.sub, f)]
    return ['%sif (m->has_f%d)\n%s    np_get_%s(&%s, top);' % (ind, e.fid, ind, e.sub, f)]


for msg, _, entries in levels:
    T = top_of[msg]
    n.append('static void np_put_%s(const void *top, np_%s *m)\n{\n    const %s *a = (const %s *)top;' % (msg, msg, T, T))
    for k, e in enumerate(entries):
        for f in flat([e]):
            if f.kind == 'raw':  # the .options size holds the C field
                n.append('    _Static_assert(sizeof(m->%sf%d.bytes) >= sizeof(a->%s), "max_size of f%d");'
                         % ('c%d.' % k if e.kind == 'disc' else '', f.fid, f.path, f.fid))
    for k, e in enumerate(entries):
        if e.kind == 'disc':
            n.append('    switch ((long long)a->%s) {' % e.sel)
            for num, m in e.cases:
                n.append('    case %d:' % num)
                n.append('        m->which_c%d = np_%s_f%d_tag;' % (k, msg, m.fid))
                n += np_put(m, '        ', 'm->c%d.' % k)
                n.append('        break;')
            n.append('    default:\n        break;\n    }')
        else:
            n += np_put(e, '    ')
    n.append('}')
    n.append('static void np_get_%s(const np_%s *m, void *top)\n{\n    %s *out = (%s *)top;' % (msg, msg, T, T))
    for k, e in enumerate(entries):
        if e.kind == 'disc':
            n.append('    switch (m->which_c%d) {' % k)
            for _, m in e.cases:
                n.append('    case np_%s_f%d_tag:' % (msg, m.fid))
                n += np_get(m, '        ', 'm->c%d.' % k)
                n.append('        break;')
            n.append('    default:\n        break;\n    }')
        else:
            n += np_get(e, '    ')
    n.append('}')
for name, msg in tops:
    n.append('#define BENCH_NP_%s %s' % (name, msg))
open('%s/bench_glue_np.h' % out_dir, 'w').write('\n'.join(n) + '\n')
