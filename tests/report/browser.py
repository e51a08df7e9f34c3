#!/usr/bin/env python3
"""The report in a real browser (issue 29): a site made by `ddigen report`
opened in headless Chromium over the DevTools protocol (cdp.py), asserting
on the rendered DOM:
  - no page visited reports a console error or a failed load;
  - on the record's page, for each architecture and each DDI version of
    the select, the byte map shown draws exactly the fields the spec has
    there, each box at the spec's offset (read from the box's geometry,
    not only from its data attributes), against an independent reading of
    the spec XML;
  - switching the version changes which fields are drawn (the record
    must have a field that exists at one version and not another);
  - typing part of the record's name into the index's search finds it;
  - every link of every page resolves to a file of the site or under the
    docs root given to ddigen report.
A screenshot of the record's byte map per architecture goes to --shots.

usage: browser.py SITE RECORD SPEC --shots DIR [--docs-root DIR] [--search TEXT]"""
import argparse
import html.parser
import os
import sys
import urllib.parse
import xml.etree.ElementTree as ET

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import cdp  # noqa: E402

failures = []


def check(cond, what):
    if not cond:
        failures.append(what)
        print("FAIL", what)
    return cond


# --- the spec, read on its own --------------------------------------------

class Spec:
    def __init__(self, path):
        root = ET.parse(path).getroot()
        layout = root.find("layout")
        self.versions = [v.get("short") for v in layout.findall("version")]
        self.archs = [a.get("name") for a in layout.findall("arch")]
        self.records = {}
        for r in layout.findall("record"):
            self.records.setdefault(r.get("name"), r)

    def vset(self, text):
        if text is None:
            return set(range(len(self.versions)))
        out = set()
        for part in text.split():
            lo, _, hi = part.partition("-")
            a = self.versions.index(lo)
            b = self.versions.index(hi) if hi else a
            out.update(range(a, b + 1))
        return out

    def has_arch(self, el, arch):
        return el.get("archs") is None or arch in el.get("archs").split()

    def drawn(self, record, arch, v):
        """{path: bit offset} of the named leaf fields at (arch, version)."""
        out = {}

        def walk(rec):
            if v not in self.vset(rec.get("versions")) or not self.has_arch(rec, arch):
                return
            for f in rec.findall("field"):
                if v not in self.vset(f.get("versions")) or not self.has_arch(f, arch):
                    continue
                nested = f.find("record")
                if nested is not None:
                    walk(nested)
                    continue
                if not f.get("name"):
                    continue
                for o in f.findall("offset"):
                    if o.get("arch") == arch and v in self.vset(o.get("versions")):
                        out.setdefault(f.get("path"), int(o.get("bits")))
        walk(record)
        return out

    def record_versions(self, record, arch):
        out = set()
        for s in record.findall("size"):
            if s.get("arch") == arch:
                out |= self.vset(s.get("versions"))
        return out & self.vset(record.get("versions"))


# --- links ------------------------------------------------------------------

class Links(html.parser.HTMLParser):
    def __init__(self):
        super().__init__()
        self.hrefs = []

    def handle_starttag(self, tag, attrs):
        for k, v in attrs:
            if k in ("href", "src"):
                self.hrefs.append(v)


def check_links(site, docs_root):
    pages = 0
    for folder, _, files in os.walk(site):
        for name in files:
            if not name.endswith(".html"):
                continue
            pages += 1
            page = os.path.join(folder, name)
            p = Links()
            with open(page, encoding="utf-8") as f:
                p.feed(f.read())
            for href in p.hrefs:
                target = urllib.parse.unquote(href.split("#", 1)[0])
                if not target:
                    continue
                if docs_root and target.startswith(docs_root + "/"):
                    check(os.path.isfile(target), "%s: link to a missing page %s" % (page, href))
                    continue
                check("://" not in href, "%s: link leaves the site: %s" % (page, href))
                resolved = os.path.normpath(os.path.join(folder, target))
                check(resolved.startswith(os.path.abspath(site) + os.sep) and os.path.isfile(resolved),
                      "%s: link to nothing: %s" % (page, href))
    print("links: %d pages checked" % pages)


# --- the browser ------------------------------------------------------------

DRAWN = """(() => {
  const out = {};
  document.querySelectorAll('section.arch').forEach((sec) => {
    const arch = sec.id.slice(4), svgs = [...sec.querySelectorAll('svg.bytemap')].filter(
      (s) => !s.hasAttribute('hidden') && getComputedStyle(s).display !== 'none');
    out[arch] = svgs.map((svg) => {
      const rowBytes = +svg.dataset.rowBytes, x0 = +svg.dataset.x0, bw = +svg.dataset.bitWidth;
      return [...svg.querySelectorAll('g.fld')].map((g) => {
        const r = g.querySelector('rect');
        return {path: g.dataset.path, bits: +g.dataset.offsetBits,
                geometry: +r.dataset.row * rowBytes * 8 + (r.x.baseVal.value - x0) / bw,
                drawn: r.getBoundingClientRect().width > 0};
      });
    });
  });
  return out;
})()"""


def check_record_page(b, site, spec, name, shots):
    record = spec.records.get(name)
    if not check(record is not None, "the spec has no record %s" % name):
        return
    b.navigate("file://" + os.path.join(site, "r", name + ".html"))
    options = b.eval("[...document.querySelectorAll('#version option')].map(o => [o.value, o.textContent])")
    check(options, "%s: no version select" % name)
    seen_sets = {}
    for value, short in options:
        b.eval("(() => { const s = document.getElementById('version'); s.value = %r;"
               " s.dispatchEvent(new Event('change')); })()" % value)
        drawn = b.eval(DRAWN)
        v = spec.versions.index(short)
        for arch in spec.archs:
            maps = drawn.get(arch, [])
            exists = v in spec.record_versions(record, arch)
            if not check(len(maps) == (1 if exists else 0),
                         "%s %s %s: %d byte maps shown, expected %d" % (name, arch, short, len(maps), exists)):
                continue
            if not exists:
                continue
            boxes = maps[0]
            got = {bx["path"]: bx["bits"] for bx in boxes}
            want = spec.drawn(record, arch, v)
            check(got == want, "%s %s %s: boxes differ from the spec: only drawn %s, only in spec %s, "
                  "other offset %s" % (name, arch, short, sorted(set(got) - set(want))[:5],
                                       sorted(set(want) - set(got))[:5],
                                       [(p, got[p], want[p]) for p in got if p in want and got[p] != want[p]][:5]))
            for bx in boxes:
                check(bx["geometry"] == bx["bits"] and bx["drawn"],
                      "%s %s %s: box %s drawn at bit %s, says %s" % (name, arch, short, bx["path"],
                                                                     bx["geometry"], bx["bits"]))
            seen_sets.setdefault(arch, set()).add(frozenset(got))
    changing = [a for a in spec.archs if len(seen_sets.get(a, ())) > 1]
    check(changing, "%s: switching the version never changed the fields drawn" % name)
    print("%s: %d versions x %d archs checked; the version switch changes the drawing on %s"
          % (name, len(options), len(spec.archs), " ".join(changing)))
    # the newest version, one screenshot per architecture
    b.eval("(() => { const s = document.getElementById('version'); s.selectedIndex = s.options.length - 1;"
           " s.dispatchEvent(new Event('change')); })()")
    os.makedirs(shots, exist_ok=True)
    for arch in spec.archs:
        clip = b.eval("(() => { const r = document.getElementById('map-%s').getBoundingClientRect();"
                      " return {x: r.x + scrollX, y: r.y + scrollY, width: r.width, height: r.height}; })()" % arch)
        path = os.path.join(shots, "report-%s-%s.png" % (name, arch))
        b.screenshot(path, clip)
        print("screenshot:", path)


def check_search(b, site, name, text):
    b.navigate("file://" + os.path.join(site, "index.html"))
    b.eval("document.getElementById('search').focus()")
    b.call("Input.insertText", {"text": text})
    hits = b.eval("[...document.querySelectorAll('#results li a')].map(a => a.textContent)")
    visible = b.eval("!document.getElementById('results').hidden")
    check(visible and name in hits, "search for %r: %s not among %d results" % (text, name, len(hits)))
    b.eval("(() => { const a = [...document.querySelectorAll('#results li a')].find(a => a.textContent === %r);"
           " a.click(); })()" % name)
    b.wait_event("Page.loadEventFired")
    title = b.eval("document.title")
    check(title == name, "the search result opened %r, not %s" % (title, name))
    print("search %r: %d results, %s among them, its link opens its page" % (text, len(hits), name))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("site")
    ap.add_argument("record")
    ap.add_argument("spec")
    ap.add_argument("--shots", required=True)
    ap.add_argument("--docs-root")
    ap.add_argument("--search")
    ap.add_argument("--also", action="append", default=[], help="another page to open (relative to SITE)")
    args = ap.parse_args()
    site = os.path.abspath(args.site)
    docs_root = os.path.realpath(args.docs_root) if args.docs_root else None
    binary = cdp.find_chromium()
    if not binary:
        print("SKIP: chromium is not installed (scripts/install-deps.sh installs it)")
        return 77
    spec = Spec(args.spec)
    check_links(site, docs_root)
    b = cdp.Browser(binary)
    try:
        b.open_page()
        check_search(b, site, args.record, args.search or args.record[3:-3].lower())
        check_record_page(b, site, spec, args.record, args.shots)
        for page in args.also:
            b.navigate("file://" + os.path.join(site, page))
            check(b.eval("document.querySelector('h1') !== null"), "%s: no heading" % page)
        errors = b.console_errors()
        check(not errors, "console errors: %s" % errors[:5])
    finally:
        b.close()
    print("%d failures" % len(failures))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
