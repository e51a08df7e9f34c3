#!/usr/bin/env python3
"""Divide the hand-labelled records into tune.txt (12) and heldback.txt (8).

Whole records move, and records that share a reference page (an embedded
flags page, a union member's page) move together, so a page never straddles
the two files. Header paths (wdk/...) are shared by most records and do not
join them. The division is a seeded shuffle of those groups, filled into
heldback.txt until it holds 8 records; it depends only on the record names
and pages, so re-running on tune.txt + heldback.txt reproduces the files.

  split.py [--seed N] [--check] [--out DIR] INPUT...
"""
import argparse
import os
import random
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import labelfile  # noqa: E402

SEED = 26        # issue 26
HELDBACK = 8
TOTAL = 20


def groups_sharing_pages(records):
    parent = {r.name: r.name for r in records}

    def find(x):
        while parent[x] != x:
            parent[x] = parent[parent[x]]
            x = parent[x]
        return x

    owner = {}
    for r in records:
        for p in r.pages:
            if not p.startswith("ddi-docs/"):
                continue
            if p in owner:
                parent[find(r.name)] = find(owner[p])
            else:
                owner[p] = r.name
    groups = {}
    for r in records:
        groups.setdefault(find(r.name), []).append(r.name)
    return sorted(sorted(g) for g in groups.values())


def choose_heldback(groups, seed):
    order = list(groups)
    random.Random(seed).shuffle(order)
    held = []
    for g in order:
        if len(held) + len(g) <= HELDBACK:
            held.extend(g)
    if len(held) != HELDBACK:
        sys.exit("split.py: error: groups cannot make exactly %d held-back records" % HELDBACK)
    return set(held)


def render(header, records, which):
    labels = sum(len(r.labels) for r in records)
    out = list(header)
    out.append("#")
    out.append("# This file: %s, %d records, %d labels (split.py, seed %d)." % (which, len(records), labels, SEED))
    for r in sorted(records, key=lambda r: r.name):
        out.append("")
        out.extend(r.raw)
    return "\n".join(out) + "\n"


def strip_file_line(header):
    # The "This file:" line is written by render(); drop it (and its "#") on re-reading.
    h = [l for l in header if not l.startswith("# This file:")]
    while h and h[-1].strip() == "#":
        h.pop()
    return h


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("inputs", nargs="+")
    ap.add_argument("--seed", type=int, default=SEED)
    ap.add_argument("--out", default=os.path.dirname(os.path.abspath(__file__)))
    ap.add_argument("--check", action="store_true", help="compare with the files in --out, write nothing")
    a = ap.parse_args()
    header, records = None, []
    for path in a.inputs:
        h, recs = labelfile.read(path)
        header = header or strip_file_line(h)
        records.extend(recs)
    names = [r.name for r in records]
    dup = sorted({n for n in names if names.count(n) > 1})
    if dup:
        sys.exit("split.py: error: records given twice: " + ", ".join(dup))
    if len(records) != TOTAL:
        sys.exit("split.py: error: expected %d records, got %d" % (TOTAL, len(records)))
    held = choose_heldback(groups_sharing_pages(records), a.seed)
    files = {
        "tune.txt": render(header, [r for r in records if r.name not in held], "tune"),
        "heldback.txt": render(header, [r for r in records if r.name in held], "heldback"),
    }
    status = 0
    for name, text in files.items():
        path = os.path.join(a.out, name)
        if a.check:
            with open(path, encoding="utf-8") as f:
                if f.read() != text:
                    print("split.py: %s differs from the split" % path)
                    status = 1
        else:
            with open(path, "w", encoding="utf-8") as f:
                f.write(text)
    return status


if __name__ == "__main__":
    sys.exit(main())
