#!/usr/bin/env python3
"""Growth of every stage with its input: each case is generated at x1, x2,
x4 and x8 and timed with ddigen (best of 2); it prints the time of each
size and the growth factor per doubling (t(2n)/t(n); the geometric mean
over the three doublings and the worst one). Linear is 2.0; a quadratic
step shows as 4. Cases: fields per page and page bytes (markdown, HTML,
text), the spec merge and lint of one page of many members, trace of many
calls, generate of many records, and the shapes that once were quadratic
(nested YAML flow, wide table rows, one wide struct, an internal-entity
spec) at the sizes the readers accept.

usage: bench_growth.py DDIGEN [BASE]   (BASE scales every case, default 1)"""
import os
import subprocess
import sys
import tempfile
import time

FRONT = "---\nUID: NS:bench._GROW\ntitle: GROW structure (bench.h)\n---\n\n# GROW structure\n\n"


def md_fields(n):
    body = "## -struct-fields\n\n" + "".join(
        "### -field Member%d\n\nThe count of widgets. Must be zero when Flag%d is set.\n\n" % (i, i) for i in range(n))
    return FRONT + body


def md_paragraphs(n):  # page bytes: one member, a long body of paragraphs
    return FRONT + "## -struct-fields\n\n### -field A\n\n" + "".join(
        "The count %d of widgets must be zero when the pool is empty.\n\n" % i for i in range(n))


def md_wide_rows(n):  # rows of 256 cells, the most a row may have
    row = "|" + "|".join("c%d" % i for i in range(255)) + "|\n"
    head = "|" + "|".join("h%d" % i for i in range(255)) + "|\n" + "|" + "-|" * 255 + "\n"
    return FRONT + head + row * n


def md_nested(n):  # quotes 60 deep (the bound is 64), n paragraphs
    return FRONT + "".join(">" * 60 + " para %d\n\n" % i for i in range(n))


def md_front_matter(n):  # flow collections 60 deep (the bound is 64), n keys
    keys = "".join("key%d: %s1%s\n" % (i, "[" * 60, "]" * 60) for i in range(n))
    return "---\nUID: NS:bench._GROW\n" + keys + "---\n\n# GROW structure\n"


def html_members(n):
    members = "".join("<p><strong>Member%d</strong></p><p>The count of widgets in pool %d.</p>" % (i, i)
                      for i in range(n))
    return ("<html><head><title>GROW structure</title></head><body><h1>GROW structure (bench.h)</h1>"
            "<h2>Syntax</h2><pre>typedef struct _GROW { UINT A; } GROW;</pre><h2>Members</h2>" + members +
            "</body></html>")


def text_members(n):
    return "GROW structure (bench.h)\n\nSyntax\n\ntypedef struct _GROW {\n  UINT A;\n} GROW;\n\nMembers\n\n" + "".join(
        "Member%d\n\nThe count of widgets in pool %d.\n\n" % (i, i) for i in range(n))


def spec_header(records, fields, wide=False):
    out = ['<?xml version="1.0" encoding="UTF-8"?>', '<ddi-spec version="1">', '  <layout>',
           '    <arch name="x64" triple="x86_64-pc-windows-msvc" macro="_M_AMD64"/>',
           '    <version name="V_A" short="A" value="0x10"/>', '    <version name="V_B" short="B" value="0x20"/>']
    for r in range(records):
        out.append('    <record name="R%d" kind="struct" file="b.h" line="%d">' % (r, r + 1))
        out.append('      <size arch="x64" bytes="%d" align="4"/>' % (4 * fields))
        for f in range(fields):
            v = ' versions="A"' if f % 2 else ''
            out.append('      <field name="F%d" path="F%d" type="UINT" line="%d" canonical="unsigned int"%s>'
                       '<offset arch="x64"%s bits="%d"/></field>' % (f, f, f + 2, v, v, 32 * f))
        out.append('    </record>')
    out += ['  </layout>', '</ddi-spec>']
    return "\n".join(out) + "\n"


def spec_records(n):
    return spec_header(n, 20)


def spec_wide_struct(n):
    return spec_header(1, n)


def spec_entity(n):  # refused at the DOCTYPE whatever follows
    return '<?xml version="1.0"?>\n<!DOCTYPE ddi-spec [<!ENTITY e "%s">]>\n' % ("x" * 1000) + \
        spec_header(n, 20).split("\n", 1)[1].replace('file="b.h"', 'file="&e;"')


def merge_page(n):
    """A layout of one record of n fields and a page documenting each with a rule."""
    layout = spec_header(1, n).replace('name="R0"', 'name="GROW"')
    page = "---\nUID: NS:bench._GROW\ntitle: GROW structure (bench.h)\n---\n\n# GROW structure\n\n" \
        "## -struct-fields\n\n" + "".join(
            "### -field F%d\n\nThe count of widgets. Must be zero when F%d is nonzero.\n\n" % (i, (i + 1) % n)
            for i in range(n))
    return layout, page


def cbor_head(major, v):
    if v < 24:
        return bytes([major << 5 | v])
    for extra, size in ((24, 1), (25, 2), (26, 4), (27, 8)):
        if v < 1 << (8 * size):
            return bytes([major << 5 | extra]) + v.to_bytes(size, "big")
    raise ValueError(v)


def fnv1a(name):
    h = 0x811c9dc5
    for c in name.encode():
        h = ((h ^ c) * 0x01000193) & 0xffffffff
    return h


def trace_calls(spec_text, n):
    """n calls of DXGKDDI_BUILDPAGINGBUFFER, as the generated marshallers write them."""
    import re
    rec = re.search(r'<record name="DXGKARG_BUILDPAGINGBUFFER" id="(\d+)"', spec_text)
    op = re.search(r'<field name="Operation" id="(\d+)"', spec_text[rec.start():])
    fields = cbor_head(5, 1) + cbor_head(0, int(op.group(1))) + cbor_head(0, 1)
    call = cbor_head(4, 4) + cbor_head(0, fnv1a("DXGKDDI_BUILDPAGINGBUFFER")) + cbor_head(0, 0) + \
        cbor_head(0, int(rec.group(1))) + fields
    return call * n


def header_records(n):
    out = ["#define DXGKDDI_INTERFACE_VERSION_A 0x1000"]
    for r in range(n):
        out.append("typedef struct _R%d {" % r)
        out += ["    unsigned int F%d;" % f for f in range(50)]
        out.append("} R%d;" % r)
    return "\n".join(out) + "\n"


DOCS = ["docs", "--no-syntax", "-q", "INPUT", "-o", "OUTPUT"]

CASES = [
    # name, generator, base size, file name, command (INPUT, OUTPUT, DIR substituted)
    ("md: fields per page", md_fields, 1500, "p.md", DOCS),
    ("md: page bytes", md_paragraphs, 6000, "p.md", DOCS),
    ("md: table rows of 256 cells", md_wide_rows, 6, "p.md", DOCS),
    ("md: quotes 60 deep", md_nested, 30, "p.md", DOCS),
    ("md: front matter 60 deep", md_front_matter, 20, "p.md", DOCS),
    ("html: members", html_members, 1500, "p.html", DOCS),
    ("text: members", text_members, 1500, "p.txt", DOCS),
    ("spec: records", spec_records, 50, "s.xml", ["validate", "INPUT"]),
    ("spec: one wide struct", spec_wide_struct, 1000, "s.xml", ["validate", "INPUT"]),
    ("spec: internal entity", spec_entity, 50, "s.xml", ["validate", "INPUT"]),
    ("spec merge: members per page", None, 1500, "merge", ["spec", "-q", "--layout", "DIR/l.xml", "--docs",
                                                            "DIR/d.xml", "-o", "OUTPUT"]),
    ("lint: members per page", None, 1500, "lint", ["lint", "DIR/s.xml"]),
    ("trace: calls", None, 20000, "trace", ["trace", "INPUT", "--spec", "DIR/ddi.xml", "-o", "OUTPUT"]),
    ("header: records of 50 fields", header_records, 10, "h.h",
     ["layout", "-q", "--arch", "x64", "--header", "INPUT", "-o", "OUTPUT"]),
    ("generate: records of 50 fields", header_records, 10, "h.h",
     ["generate", "--arch", "x64", "--header", "INPUT", "-o", "DIR/gen"]),
]


def best_time(cmd):
    """Best of two; a refused input (the internal entity) is timed too."""
    best = None
    for _ in range(2):
        start = time.perf_counter()
        subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        t = time.perf_counter() - start
        best = t if best is None else min(best, t)
    return best


def run(ddigen, cmd):
    subprocess.run([ddigen] + cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=True)


def prepare(ddigen, tmp, kind, n, spec_text):
    """Writes the input of case kind at size n; returns the INPUT path."""
    if kind in ("merge", "lint"):
        layout, page = merge_page(n)
        open(os.path.join(tmp, "l.xml"), "w").write(layout)
        open(os.path.join(tmp, "p.md"), "w").write(page)
        run(ddigen, ["docs", "--no-syntax", "-q", os.path.join(tmp, "p.md"), "-o", os.path.join(tmp, "d.xml")])
        if kind == "lint":
            run(ddigen, ["spec", "-q", "--layout", os.path.join(tmp, "l.xml"), "--docs", os.path.join(tmp, "d.xml"),
                         "-o", os.path.join(tmp, "s.xml")])
        return os.path.join(tmp, "d.xml")
    path = os.path.join(tmp, "t.cbor")
    open(path, "wb").write(trace_calls(spec_text, n))
    return path


def fixture_spec(ddigen, tmp):
    """The spec of the bundled fixture kit: what trace names calls from."""
    kit = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "tests", "fixtures", "wdk",
                       "10.0.26100.0")
    run(ddigen, ["generate", "--wdk", kit, "--arch", "x64", "--outputs", "asserts", "-o", os.path.join(tmp, "fx")])
    os.replace(os.path.join(tmp, "fx", "spec", "ddi.xml"), os.path.join(tmp, "ddi.xml"))
    return open(os.path.join(tmp, "ddi.xml")).read()


def main():
    ddigen = sys.argv[1]
    scale = float(sys.argv[2]) if len(sys.argv) > 2 else 1.0
    sizes = (1, 2, 4, 8)
    worst_case = 0.0
    print("%-32s %10s %8s %8s %8s %8s %9s %9s" % ("case", "x1 bytes", "x1 s", "x2 s", "x4 s", "x8 s",
                                                 "per 2x", "worst 2x"))
    with tempfile.TemporaryDirectory() as tmp:
        spec_text = fixture_spec(ddigen, tmp)
        for name, gen, base, fname, args in CASES:
            times, size1 = [], 0
            for mult in sizes:
                n = max(1, int(base * scale)) * mult
                if gen:
                    path = os.path.join(tmp, fname)
                    text = gen(n)
                    with open(path, "w") as f:
                        f.write(text)
                else:
                    path = prepare(ddigen, tmp, fname, n, spec_text)
                size1 = size1 or os.path.getsize(path)
                cmd = [ddigen] + [path if a == "INPUT" else os.path.join(tmp, "out.xml") if a == "OUTPUT"
                                  else a.replace("DIR", tmp) for a in args]
                times.append(best_time(cmd))
            steps = [b / a for a, b in zip(times, times[1:])]
            mean = (times[-1] / times[0]) ** (1.0 / len(steps))
            worst_case = max(worst_case, mean)
            print("%-32s %10d %8.3f %8.3f %8.3f %8.3f %9.2f %9.2f" % (name, size1, *times, mean, max(steps)))
    print("worst growth factor per doubling: %.2f (linear 2.0; quadratic 4.0)" % worst_case)


if __name__ == "__main__":
    main()
