"""Reader of the hand-label files (tune.txt, heldback.txt, the self-test).

One parser for split.py and score.py, so both agree on what a label is. The
format is described in the header comment of tune.txt; a line that does not
fit it is an error naming the file, the line and what was expected.
"""
import re

KINDS = {
    "reserved-zero", "nonzero", "align", "range", "exclusive", "implies",
    "null-when", "nonnull-when", "zero-when", "at-least", "in-set",
    "either-nonzero",
}
DIRECTION = {"caller": "in", "driver": "out"}
LABEL_RE = re.compile(r"^(\d+)\s+(\S+)\s+(\S+)((?:\s+[A-Za-z]+=\S+)*)\s*(?:#\s?(.*))?$")


class LabelError(Exception):
    pass


class Label:
    def __init__(self, record, page, line, subject, kind, direction, operands, quote, where):
        self.record = record
        self.page = page
        self.line = line
        self.subject = subject
        self.kind = kind
        self.direction = direction  # "in" or "out"
        self.operands = operands    # dict, without "by"
        self.quote = quote
        self.where = where          # "file:line" of the label itself

    def text(self):
        ops = " ".join("%s=%s" % kv for kv in sorted(self.operands.items()))
        by = "caller" if self.direction == "in" else "driver"
        return "%s:%d %s %s by=%s %s" % (self.page, self.line, self.subject, self.kind, by, ops)


class Record:
    def __init__(self, name, where):
        self.name = name
        self.where = where
        self.raw = []       # the record's lines as written, for split.py
        self.labels = []
        self.pages = []     # every `page` of the record, in order


def _fail(path, num, expected, line):
    raise LabelError("%s:%d: error: expected %s, got: %s" % (path, num, expected, line.strip()))


def _label(rec, page, path, num, line):
    m = LABEL_RE.match(line)
    if not m:
        _fail(path, num, "LINE SUBJECT KIND by=caller|driver [NAME=VALUE]... [# quote]", line)
    lineno, subject, kind, ops_text, quote = m.groups()
    if kind not in KINDS:
        _fail(path, num, "a kind among " + ", ".join(sorted(KINDS)), line)
    operands = dict(op.split("=", 1) for op in ops_text.split())
    by = operands.pop("by", None)
    if by not in DIRECTION:
        _fail(path, num, "by=caller or by=driver", line)
    if page is None:
        _fail(path, num, "a `page PATH` line before the first label", line)
    return Label(rec.name, page, int(lineno), subject, kind, DIRECTION[by], operands,
                 (quote or "").strip(), "%s:%d" % (path, num))


def read(path):
    """Returns (header_lines, records). The header is the leading comment block."""
    header, records = [], []
    rec, page, in_header = None, None, True
    with open(path, encoding="utf-8") as f:
        for num, line in enumerate(f, 1):
            line = line.rstrip("\n")
            stripped = line.strip()
            if in_header and (stripped.startswith("#") or not stripped) and rec is None:
                header.append(line)
                continue
            in_header = False
            if stripped.startswith("record "):
                rec = Record(stripped.split(None, 1)[1].strip(), "%s:%d" % (path, num))
                records.append(rec)
                page = None
                rec.raw.append(line)
                continue
            if rec is None:
                if stripped and not stripped.startswith("#"):
                    _fail(path, num, "`record NAME` before any page or label", line)
                continue
            rec.raw.append(line)
            if not stripped or stripped.startswith("#"):
                continue
            if stripped.startswith("page "):
                page = stripped.split(None, 1)[1].strip()
                rec.pages.append(page)
                continue
            rec.labels.append(_label(rec, page, path, num, stripped))
    while header and not header[-1].strip():
        header.pop()
    for r in records:
        while r.raw and not r.raw[-1].strip():
            r.raw.pop()
    return header, records
