#!/usr/bin/env python3
"""history.json against the specs themselves, read here with ElementTree:
for every top-level record, the kits it is in, its first and last kit,
its size per architecture at each kit's newest version it exists at, and
each named field's first and last kit; and each record page of the site
has a strip with one cell per kit.
usage: history_check.py SITE SPEC... (oldest first)"""
import json
import os
import sys
import xml.etree.ElementTree as ET


def versions_of(layout):
    return [v.get("short") for v in layout.findall("version")]


def vset(names, text):
    if text is None:
        return set(range(len(names)))
    out = set()
    for part in text.split():
        lo, _, hi = part.partition("-")
        out.update(range(names.index(lo), names.index(hi or lo) + 1))
    return out


def read(path):
    layout = ET.parse(path).getroot().find("layout")
    names = versions_of(layout)
    archs = [a.get("name") for a in layout.findall("arch")]
    records = {}
    for r in layout.findall("record"):
        if r.get("name") in records:
            continue
        newest = max(vset(names, r.get("versions")))
        sizes = []
        for a in archs:
            for s in r.findall("size"):
                if s.get("arch") == a and newest in vset(names, s.get("versions")):
                    sizes.append("%s %s" % (a, s.get("bytes")))
                    break
        fields = {f.get("path") for f in r.iter("field") if f.get("name")}
        records[r.get("name")] = (", ".join(sizes), fields)
    return records


def main():
    site, specs = sys.argv[1], sys.argv[2:]
    h = json.load(open(os.path.join(site, "history.json")))
    kits = h["kits"]
    failures = 0
    if len(kits) != len(specs):
        print("FAIL %d kits for %d specs" % (len(kits), len(specs)))
        return 1
    per_kit = [read(p) for p in specs]
    names = set().union(*per_kit)
    if set(h["records"]) != names:
        print("FAIL records differ: %s" % sorted(set(h["records"]) ^ names)[:10])
        failures += 1
    for name in sorted(names & set(h["records"])):
        r = h["records"][name]
        present = [k for k, recs in zip(kits, per_kit) if name in recs]
        want = {"kits": present, "introduced": present[0], "last": present[-1],
                "sizes": {k: recs[name][0] for k, recs in zip(kits, per_kit) if name in recs}}
        fields = {}
        for k, recs in zip(kits, per_kit):
            for f in recs.get(name, ("", set()))[1]:
                fields.setdefault(f, [k, k])[1] = k
        want["fields"] = fields
        got = {key: r[key] for key in want}
        if got != want:
            failures += 1
            if failures < 10:
                print("FAIL %s: %s" % (name, {k: (got[k], want[k]) for k in want if got[k] != want[k]}))
    newest = per_kit[-1]
    for name in sorted(newest):
        page = os.path.join(site, "r", name + ".html")
        text = open(page, encoding="utf-8").read() if os.path.exists(page) else ""
        if text.count('<li class="kit ') != len(kits):
            failures += 1
            print("FAIL %s: no strip of %d kits on its page" % (name, len(kits)))
            break
    changed = sum(1 for r in h["records"].values() if r["changes"])
    print("%d records over %d kits agree with the specs; %d with changes; %d introduced after the first kit"
          % (len(names), len(kits), changed, sum(1 for r in h["records"].values() if r["introduced"] != kits[0])))
    print("%d failures" % failures)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
