#!/usr/bin/env python3
"""Recall of generated checks on the hand labels.

  score.py --checks CHECKS.tsv LABELS...      per-record and total recall,
                                              then every unmatched label
  score.py --selftest                         score_selftest_labels.txt against
                                              score_selftest.tsv; each label's
                                              quote says `expect=match|miss`

CHECKS.tsv: one generated check a line, tab-separated: page, line, record,
subject, kind, operands (`k=v;k=v`), direction (in|out), rule-id, provenance.
Lines starting with '#' and a first row whose first column is `page` (column
names) are skipped.

A label matches a check when page (compared from `ddi-docs/` or `wdk/` on,
case-insensitively; a check's bare header file name, as the spec records
it, matches a label's header path under `wdk/` with that file name), line (the check may be one line off: wrapped sentences),
record, subject, kind, every labelled operand and direction agree. Subjects
compare on the last dotted segment, case-insensitively, or on the full path
(one a dotted suffix of the other) when both have a dot. `exclusive` is
symmetric (subject/with may be swapped). Field operands (with, requires, ref)
compare like subjects; `align`, `min`, `max` as integers when both parse;
`enum` without a leading underscore; `when` after normalising FIELD,
FIELD!=0 and FIELD==1 to one form.
"""
import argparse
import os
import re
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import labelfile  # noqa: E402

FIELD_OPERANDS = {"with", "requires", "ref"}
NUMBER_OPERANDS = {"align", "min", "max"}


class Check:
    def __init__(self, cols, where):
        self.page = norm_page(cols[0])
        self.line = int(cols[1])
        self.record = cols[2].strip()
        self.subject = cols[3].strip()
        self.kind = cols[4].strip()
        self.operands = {}
        for op in filter(None, (o.strip() for o in cols[5].split(";"))):
            k, _, v = op.partition("=")
            self.operands[k.strip()] = v.strip()
        self.direction = cols[6].strip()
        self.where = where


def norm_page(p):
    p = p.strip().replace("\\", "/")
    for root in ("ddi-docs/", "wdk/"):
        i = p.find(root)
        if i >= 0:
            return p[i:].lower()
    return p.lower()


def same_field(a, b):
    a, b = a.strip().lower(), b.strip().lower()
    if "." in a and "." in b:
        return a == b or a.endswith("." + b) or b.endswith("." + a)
    return a.split(".")[-1] == b.split(".")[-1]


def as_int(v):
    try:
        return int(v, 0)
    except ValueError:
        return None


def norm_when(w):
    w = w.replace(" ", "")
    m = re.match(r"^([^=!]+)(==|!=)(.+)$", w)
    field, op, value = (m.groups() if m else (w, "!=", "0"))
    if op == "==" and value == "1":
        op, value = "!=", "0"
    n = as_int(value)
    return field, op, (str(n) if n is not None else value.lower())


def same_operand(key, want, got):
    if key in FIELD_OPERANDS:
        return same_field(want, got)
    if key in NUMBER_OPERANDS and as_int(want) is not None and as_int(got) is not None:
        return as_int(want) == as_int(got)
    if key == "enum":
        return want.lstrip("_").lower() == got.lstrip("_").lower()
    if key == "when":
        fw, ow, vw = norm_when(want)
        fg, og, vg = norm_when(got)
        return same_field(fw, fg) and ow == og and vw == vg
    return want.strip().lower() == got.strip().lower()


def operands_agree(label, check, subject_ok):
    for key, want in label.operands.items():
        if key not in check.operands:
            return False
        if not same_operand(key, want, check.operands[key]):
            return False
    return subject_ok


def same_page(check_page, label_page):
    """A check from a header fact names the header as the spec records it,
    its file name alone (`d3dkmddi.h`); the labels name it from the shared
    folder (`wdk/10.0.14393.0/shared/d3dkmddi.h`): one file."""
    want = norm_page(label_page)
    if check_page == want:
        return True
    return "/" not in check_page and want.startswith("wdk/") and want.rsplit("/", 1)[-1] == check_page


def matches(label, check):
    if not same_page(check.page, label.page) or abs(check.line - label.line) > 1:
        return False
    if check.record.lower() != label.record.lower() or check.kind != label.kind:
        return False
    if check.direction != label.direction:
        return False
    if operands_agree(label, check, same_field(label.subject, check.subject)):
        return True
    if label.kind == "exclusive" and "with" in label.operands and "with" in check.operands:
        swapped = dict(label.operands, **{"with": label.subject})
        parent = label.subject.rsplit(".", 1)[0] + "." if "." in label.subject else ""
        flipped = labelfile.Label(label.record, label.page, label.line, parent + label.operands["with"],
                                  label.kind, label.direction, swapped, label.quote, label.where)
        return operands_agree(flipped, check, same_field(flipped.subject, check.subject))
    return False


def read_checks(path):
    checks = []
    with open(path, encoding="utf-8") as f:
        for num, line in enumerate(f, 1):
            if not line.strip() or line.startswith("#"):
                continue
            cols = line.rstrip("\n").split("\t")
            if not checks and cols[0].strip().lower() == "page":
                continue  # the column-name row
            if len(cols) < 7 or as_int(cols[1].strip()) is None:
                sys.exit("%s:%d: error: expected page, line, record, subject, kind, operands, "
                         "direction, rule-id, provenance (tab-separated)" % (path, num))
            checks.append(Check(cols, "%s:%d" % (path, num)))
    return checks


def score(label_paths, checks):
    """Returns [(record name, [(label, matched)])] in file order."""
    out = []
    for path in label_paths:
        _, records = labelfile.read(path)
        for r in records:
            out.append((r.name, [(l, any(matches(l, c) for c in checks)) for l in r.labels]))
    return out


def report(results):
    total = hit = 0
    for name, rows in results:
        n, m = len(rows), sum(1 for _, ok in rows if ok)
        total, hit = total + n, hit + m
        print("%-45s %3d/%-3d %s" % (name, m, n, ("%.2f" % (m / n)) if n else "-"))
    print("%-45s %3d/%-3d %s" % ("TOTAL", hit, total, ("%.3f" % (hit / total)) if total else "-"))
    missing = [l for _, rows in results for l, ok in rows if not ok]
    if missing:
        print("\nunmatched labels (%d):" % len(missing))
        for l in missing:
            print("  %s  %s" % (l.where, l.text()))
    return hit, total


def selftest():
    labels = os.path.join(HERE, "score_selftest_labels.txt")
    results = score([labels], read_checks(os.path.join(HERE, "score_selftest.tsv")))
    failures = 0
    for _, rows in results:
        for l, ok in rows:
            m = re.search(r"expect=(match|miss)", l.quote)
            if not m:
                print("%s: error: self-test label without expect=match|miss" % l.where)
                failures += 1
            elif (m.group(1) == "match") != ok:
                print("%s: FAIL: expected %s, got %s: %s" % (l.where, m.group(1),
                                                             "match" if ok else "miss", l.text()))
                failures += 1
    report(results)
    print("\nselftest: %s" % ("ok" if not failures else "%d failure(s)" % failures))
    return 1 if failures else 0


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("labels", nargs="*")
    ap.add_argument("--checks")
    ap.add_argument("--selftest", action="store_true")
    a = ap.parse_args()
    if a.selftest:
        return selftest()
    if not a.checks or not a.labels:
        ap.error("give --checks CHECKS.tsv and at least one labels file")
    try:
        report(score(a.labels, read_checks(a.checks)))
    except labelfile.LabelError as e:
        sys.exit(str(e))
    return 0


if __name__ == "__main__":
    sys.exit(main())
