#!/usr/bin/env python3
"""Draw the precision sample of generated checks (issue 26, "Measured").

  sample.py CHECKS.tsv [--n 120] [--seed 26] [--min-per-kind 6] > sample.tsv

CHECKS.tsv is `ddigen emit --spec SPEC --checks` on the real 14393 kit with
../shared/ddi-docs (one line per check and direction). The sample is
stratified by kind: every kind gets min(its count, --min-per-kind) checks,
the rest of --n is shared out in proportion to what each kind has left;
within a kind the draw is random with the fixed seed, so the same checks
give the same sample. Lines whose rule ID and direction repeat (an exclusive
rule has one line per partner) count once: a check is judged whole.
The output keeps the input's columns and adds `verdict` and `reason`, empty,
for the reviewer.
"""
import argparse
import collections
import random
import sys


def read_checks(path):
    rows = []
    with open(path, encoding="utf-8") as f:
        header = None
        for line in f:
            line = line.rstrip("\n")
            if not line or line.startswith("#"):
                continue
            cols = line.split("\t")
            if header is None and cols[0] == "page":
                header = cols
                continue
            rows.append(cols)
    return header, rows


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("checks")
    ap.add_argument("--n", type=int, default=120)
    ap.add_argument("--seed", type=int, default=26)
    ap.add_argument("--min-per-kind", type=int, default=6)
    a = ap.parse_args()
    header, rows = read_checks(a.checks)
    if header is None:
        sys.exit("sample.py: %s has no header row" % a.checks)
    kind_col, id_col, dir_col = header.index("kind"), header.index("rule-id"), header.index("direction")
    by_kind = collections.OrderedDict()
    seen = set()
    for cols in sorted(rows):
        key = (cols[id_col], cols[dir_col])
        if key in seen:
            continue
        seen.add(key)
        by_kind.setdefault(cols[kind_col], []).append(cols)
    rng = random.Random(a.seed)
    for kind in by_kind:
        rng.shuffle(by_kind[kind])
    take = {k: min(len(v), a.min_per_kind) for k, v in by_kind.items()}
    left = a.n - sum(take.values())
    rest = {k: len(v) - take[k] for k, v in by_kind.items()}
    total_rest = sum(rest.values())
    if left > 0 and total_rest:
        for k in by_kind:
            take[k] += min(rest[k], (left * rest[k] + total_rest - 1) // total_rest)
    out = sys.stdout
    out.write("\t".join(header + ["verdict", "reason"]) + "\n")
    n = 0
    for k, v in by_kind.items():
        for cols in sorted(v[: take[k]]):
            out.write("\t".join(cols + ["", ""]) + "\n")
            n += 1
    sys.stderr.write("sample.py: %d checks of %d (%s)\n" % (n, len(seen),
                     ", ".join("%s %d/%d" % (k, take[k], len(v)) for k, v in by_kind.items())))


if __name__ == "__main__":
    main()
