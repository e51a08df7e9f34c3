#!/usr/bin/env python3
"""SARIF output of ddigen lint: parsed by a real JSON parser (json), valid
against the official SARIF 2.1.0 JSON schema and against the stricter
subset in this folder (no properties beyond what ddigen means to emit),
and what GitHub code scanning needs: a stable ruleId per finding kind,
relative paths, partialFingerprints, one result per text finding."""
import json
import sys

import jsonschema

sarif_path, official_path, subset_path, text_path = sys.argv[1:5]
with open(sarif_path, encoding='utf-8') as f:
    log = json.load(f)
failures = 0


def check(cond, what):
    global failures
    print(('ok   ' if cond else 'FAIL ') + what)
    failures += 0 if cond else 1


for name, path in (('the official SARIF 2.1.0 schema', official_path), ('the schema subset', subset_path)):
    try:
        with open(path, encoding='utf-8') as f:
            schema = json.load(f)
        validator = jsonschema.validators.validator_for(schema)
        validator(schema, format_checker=jsonschema.FormatChecker()).validate(log)
        check(True, f'valid against {name}')
    except (OSError, ValueError) as e:
        check(False, f'{name}: cannot read {path}: {e}')
    except jsonschema.ValidationError as e:
        check(False, f'{name}: {e.message} at {list(e.absolute_path)}')
run = log['runs'][0]
rules = run['tool']['driver']['rules']
ids = [r['id'] for r in rules]
check(len(ids) == len(set(ids)) == 19, f'19 rules with unique ids: {ids}')
results = run['results']
text_findings = [l for l in open(text_path) if ': note: declared here' not in l and ': note: documented here' not in l]
check(len(results) == len(text_findings), f'{len(results)} results = {len(text_findings)} text findings')
check(all(ids[r['ruleIndex']] == r['ruleId'] for r in results), 'ruleIndex points at the ruleId')
check({r['ruleId'] for r in results} == set(ids), 'every finding kind occurs once or more in the planted fixtures')
uris = [l['physicalLocation']['artifactLocation']['uri'] for r in results
        for l in r.get('locations', []) + r.get('relatedLocations', [])]
check(uris and all(not u.startswith('/') and '://' not in u for u in uris), 'all paths relative')
fps = [r['partialFingerprints']['ddigenFinding/v1'] for r in results]
check(len(fps) == len(set(fps)) and all(len(x) == 16 for x in fps), 'partialFingerprints unique per finding')
levels = {r['level'] for r in results}
check(levels == {'error', 'warning', 'note'}, f'levels {sorted(levels)}')
print(f'{failures} failed')
sys.exit(1 if failures else 0)
