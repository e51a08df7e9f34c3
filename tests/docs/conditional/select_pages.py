#!/usr/bin/env python3
"""Selection rule for the conditional-rule label set (tests/docs/conditional).

Rule, stated once and applied mechanically:
  * candidates: struct/union pages, ../shared/ddi-docs/*/ns-*.md;
  * a page's score is the number of its body sentences (front matter dropped,
    paragraphs split on blank lines, sentences on ". ", "? " or "! ") that
    contain, case-insensitively, any of: "only if", "only when", "ignored",
    "exclusive", "unless", "optional", "null";
  * pages of a structure already scored by docs_precision are excluded:
    the names before the first '.' of the rule IDs in
    tests/docs/expected/*.rules (seeds 001, 002 and 004 are copies of
    D3DDDI_MAPGPUVIRTUALADDRESS, DXGK_ALLOCATIONINFOFLAGS_WDDM2_0 and
    DXGK_SEGMENTDESCRIPTOR3), compared with the page's file name stem;
  * the 25 highest scores are taken, ties broken by path order.
Prints "score path" for the chosen pages. The labels were written by reading
these pages, not from the extractor's output.
"""
import os
import re
import sys

CUES = ("only if", "only when", "ignored", "exclusive", "unless", "optional", "null")


def body(text):
    text = text.replace("\r\n", "\n")
    if text.startswith("---\n"):
        end = text.find("\n---\n", 4)
        if end >= 0:
            text = text[end + 5:]
    return text


def sentences(text):
    for para in re.split(r"\n\s*\n", text):
        para = " ".join(para.split())
        for s in re.split(r"(?<=[.?!]) ", para):
            if s:
                yield s


def used_structures(expected_dir):
    used = set()
    for name in os.listdir(expected_dir):
        if name.endswith(".rules"):
            with open(os.path.join(expected_dir, name), encoding="utf-8") as f:
                for line in f:
                    line = line.strip()
                    if line and not line.startswith("#") and not line.startswith("input:"):
                        used.add(line.split(".", 1)[0].lower())
    return used


def stem(name):
    """ns-d3dkmddi-_dxgk_segmentflags.md -> dxgk_segmentflags"""
    return name[:-3].split("-", 2)[2].lstrip("_")


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    shared = sys.argv[1] if len(sys.argv) > 1 else os.path.join(here, "../../../../shared")
    used = used_structures(os.path.join(here, "../expected"))
    root = os.path.join(shared, "ddi-docs")
    scored = []
    for folder in sorted(os.listdir(root)):
        d = os.path.join(root, folder)
        if not os.path.isdir(d):
            continue
        for name in sorted(os.listdir(d)):
            rel = "ddi-docs/%s/%s" % (folder, name)
            if not name.startswith("ns-") or stem(name) in used:
                continue
            with open(os.path.join(d, name), encoding="utf-8", errors="replace") as f:
                text = body(f.read())
            n = sum(1 for s in sentences(text) if any(c in s.lower() for c in CUES))
            scored.append((-n, rel))
    scored.sort()
    for neg, rel in scored[:25]:
        print(-neg, rel)


if __name__ == "__main__":
    main()
