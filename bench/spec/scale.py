#!/usr/bin/env python3
"""Scales a layout spec and a docs document up by K: every top-level record,
enum, typedef and function type, and every doc page, is copied K times with
the suffix _<k> on its names (references inside rule IDs and operands are
left alone), so `ddigen spec` sees K times the records, fields, pages,
members and rules of the input.
usage: scale.py LAYOUT.xml DOCS.xml K OUT_LAYOUT.xml OUT_DOCS.xml"""
import copy
import sys
import xml.etree.ElementTree as ET

layout_in, docs_in, k, layout_out, docs_out = sys.argv[1], sys.argv[2], int(sys.argv[3]), sys.argv[4], sys.argv[5]


def rename(el, old, new):
    for e in el.iter():
        for attr in ('name',):
            v = e.get(attr)
            if v is not None and (v == old or v.startswith(old + '.')):
                e.set(attr, new + v[len(old):])


lt = ET.parse(layout_in)
L = lt.getroot().find('layout')
items = [e for e in L if e.tag in ('record', 'enum', 'typedef', 'function-type')]
for e in items:
    L.remove(e)
for tag in ('record', 'enum', 'typedef', 'function-type'):
    for i in range(1, k + 1):
        for e in items:
            if e.tag != tag:
                continue
            c = copy.deepcopy(e)
            name = e.get('name')
            rename(c, name, f'{name}_{i}')
            if c.get('tag'):
                c.set('tag', f'{c.get("tag")}_{i}')
            if tag == 'enum':
                for v in c.findall('value'):
                    v.set('name', f'{v.get("name")}_{i}')
            L.append(c)
# the canonical order sorts by name
for tag in ('record', 'enum', 'typedef', 'function-type'):
    group = sorted([e for e in L if e.tag == tag], key=lambda e: e.get('name'))
    for e in group:
        L.remove(e)
        L.append(e)
lt.write(layout_out, encoding='UTF-8', xml_declaration=True)

dt = ET.parse(docs_in)
D = dt.getroot().find('docs')
pages = list(D)
for p in pages:
    D.remove(p)
for i in range(1, k + 1):
    for p in pages:
        c = copy.deepcopy(p)
        c.set('name', f'{p.get("name")}_{i}')
        c.set('source', f'{p.get("source")}#{i}')
        if p.get('kind') == 'enum':
            for v in c.iter('value'):
                if v.get('name'):
                    v.set('name', f'{v.get("name")}_{i}')
                    v.set('path', f'{v.get("path")}_{i}')
            for r in c.iter('rule'):
                if r.get('subject'):
                    r.set('subject', f'{r.get("subject")}_{i}')
        for r in c.iter('rule'):
            r.set('id', r.get('id').replace(p.get('name'), c.get('name'), 1))
        D.append(c)
dt.write(docs_out, encoding='UTF-8', xml_declaration=True)
