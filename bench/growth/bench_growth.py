#!/usr/bin/env python3
"""Growth of every reader with its input: each case is generated at x1, x4
and x16 and timed with ddigen (best of 2); the ratios t(x4)/t(x1) and
t(x16)/t(x4) should stay <= 5 (near-linear). Shapes include the ones that
were quadratic (nested YAML flow, wide table rows, one wide struct, an
internal-entity spec) at the sizes the readers accept.

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


def header_records(n):
    out = ["#define DXGKDDI_INTERFACE_VERSION_A 0x1000"]
    for r in range(n):
        out.append("typedef struct _R%d {" % r)
        out += ["    unsigned int F%d;" % f for f in range(50)]
        out.append("} R%d;" % r)
    return "\n".join(out) + "\n"


CASES = [
    # name, generator, base size, file name, command (INPUT, OUTPUT substituted)
    ("md: fields", md_fields, 250, "p.md", ["docs", "--no-syntax", "-q", "INPUT", "-o", "OUTPUT"]),
    ("md: table rows of 256 cells", md_wide_rows, 12, "p.md", ["docs", "--no-syntax", "-q", "INPUT", "-o", "OUTPUT"]),
    ("md: quotes 60 deep", md_nested, 60, "p.md", ["docs", "--no-syntax", "-q", "INPUT", "-o", "OUTPUT"]),
    ("md: front matter 60 deep", md_front_matter, 40, "p.md", ["docs", "--no-syntax", "-q", "INPUT", "-o", "OUTPUT"]),
    ("html: members", html_members, 250, "p.html", ["docs", "--no-syntax", "-q", "INPUT", "-o", "OUTPUT"]),
    ("text: members", text_members, 250, "p.txt", ["docs", "--no-syntax", "-q", "INPUT", "-o", "OUTPUT"]),
    ("spec: records", spec_records, 100, "s.xml", ["validate", "INPUT"]),
    ("spec: one wide struct", spec_wide_struct, 2000, "s.xml", ["validate", "INPUT"]),
    ("spec: internal entity", spec_entity, 100, "s.xml", ["validate", "INPUT"]),
    ("header: records of 50 fields", header_records, 10, "h.h",
     ["layout", "-q", "--arch", "x64", "--header", "INPUT", "-o", "OUTPUT"]),
]


def best_time(cmd):
    best = None
    for _ in range(2):
        start = time.perf_counter()
        subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        t = time.perf_counter() - start
        best = t if best is None else min(best, t)
    return best


def main():
    ddigen = sys.argv[1]
    scale = float(sys.argv[2]) if len(sys.argv) > 2 else 1.0
    worst = 0.0
    print("%-30s %10s %9s %9s %9s %7s %7s" % ("case", "x1 bytes", "x1 s", "x4 s", "x16 s", "x4/x1", "x16/x4"))
    with tempfile.TemporaryDirectory() as tmp:
        for name, gen, base, fname, args in CASES:
            times, size1 = [], 0
            for mult in (1, 4, 16):
                path = os.path.join(tmp, fname)
                text = gen(max(1, int(base * scale)) * mult)
                with open(path, "w") as f:
                    f.write(text)
                size1 = size1 or len(text)
                cmd = [ddigen] + [path if a == "INPUT" else os.path.join(tmp, "out.xml") if a == "OUTPUT" else a
                                  for a in args]
                times.append(best_time(cmd))
            r1, r2 = times[1] / times[0], times[2] / times[1]
            worst = max(worst, r1, r2)
            print("%-30s %10d %9.3f %9.3f %9.3f %7.2f %7.2f" % (name, size1, times[0], times[1], times[2], r1, r2))
    print("worst growth for 4x input: %.2f (target <= 5)" % worst)


if __name__ == "__main__":
    main()
