#!/usr/bin/env python3
"""Independent check of the stable-ID chain OLD -> NEW (generate --previous).

Reads both specs with ElementTree and checks, by the identities of
docs/ARCHITECTURE.md ("Stable IDs"), that: every item has one ID and no two
items of a scope share one; every item of OLD still in NEW kept its ID;
every item of OLD gone from NEW has its ID in NEW's <retired-ids>; no ID of
OLD went to another item. Prints counts, then "N passed, M failed"."""
import sys
import xml.etree.ElementTree as ET


def items(spec_path):
    """{scope: {identity: id}} and a list of duplicate complaints."""
    root = ET.parse(spec_path).getroot()
    layout = root.find("layout")
    found, dups = {}, []

    def put(scope, key, ident):
        s = found.setdefault(scope, {})
        if key in s:
            dups.append(f"{scope}: {key} listed twice (IDs {s[key]} and {ident})")
            return
        s[key] = ident

    def fields(top, rec, seen):
        for f in rec.findall("field"):
            nested = f.find("record")
            key = (f.get("path"), f.get("type"), f.get("bits"))
            if f.get("name") == "" and nested is not None:
                key = ("", "nested", nested.get("name"))
            seen[key] = seen.get(key, 0) + 1
            put(("field", top), key + (seen[key],), f.get("id"))
            if nested is not None:
                put("record", nested.get("name"), nested.get("id"))
                fields(top, nested, seen)

    for rec in layout.findall("record"):
        put("record", rec.get("name"), rec.get("id"))
        fields(rec.get("name"), rec, {})
    for en in layout.findall("enum"):
        put("enum", en.get("name"), en.get("id"))
        for v in en.findall("value"):
            s = found.setdefault(("value", en.get("name")), {})
            # one name listed once per value (#if branches) is one item
            if v.get("name") in s and s[v.get("name")] != v.get("id"):
                dups.append(f"{en.get('name')}.{v.get('name')}: two IDs {s[v.get('name')]} and {v.get('id')}")
            s[v.get("name")] = v.get("id")
    retired = {}
    r = root.find("retired-ids")
    for e in (r if r is not None else []):
        scope = {"record": "record", "enum": "enum"}.get(e.tag)
        if e.tag == "field":
            scope = ("field", e.get("record"))
        elif e.tag == "value":
            scope = ("value", e.get("enum"))
        retired.setdefault(scope, set()).add(e.get("id"))
    return found, dups, retired


def main(old_path, new_path):
    old, old_dups, _ = items(old_path)
    new, new_dups, retired = items(new_path)
    failures = []
    failures += [f"OLD: {d}" for d in old_dups] + [f"NEW: {d}" for d in new_dups]
    kept = moved = gone = added = 0
    for scope, s in new.items():
        ids = {}
        for key, ident in s.items():
            if ident is None:
                failures.append(f"NEW: {scope} {key} has no ID")
                continue
            if ident in ids:
                failures.append(f"NEW: {scope}: ID {ident} given to {ids[ident]} and {key}")
            ids[ident] = key
            if ident in retired.get(scope, set()):
                failures.append(f"NEW: {scope} {key} reuses the retired ID {ident}")
    for scope, s in old.items():
        n = new.get(scope, {})
        new_by_id = {v: k for k, v in n.items()}
        for key, ident in s.items():
            if key in n:
                if n[key] == ident:
                    kept += 1
                else:
                    moved += 1
                    failures.append(f"{scope} {key}: ID {ident} in OLD, {n[key]} in NEW")
            else:
                gone += 1
                if ident not in retired.get(scope, set()):
                    failures.append(f"{scope} {key}: gone from NEW but ID {ident} is not retired")
                if ident in new_by_id:
                    failures.append(f"{scope}: ID {ident} of {key} given to {new_by_id[ident]}")
    for scope, s in new.items():
        added += sum(1 for k in s if k not in old.get(scope, {}))
    for f in failures[:40]:
        print("FAIL", f)
    print(f"ids: {kept} kept, {gone} retired, {added} new, {moved} renumbered")
    print(f"{0 if failures else 1} passed, {1 if failures else 0} failed")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1], sys.argv[2]))
