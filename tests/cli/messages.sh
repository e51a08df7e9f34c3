#!/usr/bin/env bash
# Messages are safe to print and usage is uniform (issue 24): every command
# exits 2 on an unknown option, a missing value or an extra argument, and
# accepts "--" before file names; an input quoted in a message is cut and its
# control bytes escaped; SARIF URIs are percent-encoded (RFC 3986).
#   messages.sh DDIGEN SOURCE_DIR WORK
set -u
ddigen=$1 src=$2 work=$3
rm -rf "$work" && mkdir -p "$work"
cd "$work" || exit 1
failures=0 passed=0
ok() { echo "ok   $*"; passed=$((passed + 1)); }
fail() { echo "FAIL $*"; failures=$((failures + 1)); }
layout=$src/spec/snapshots/wdk-10.0.26100.0.layout.xml
esc=$'\e'
# A raw control byte other than the newline ending each line.
raw_controls() { LC_ALL=C grep -q $'[\001-\011\013-\037\177]' "$1"; }

# expect RC ARGS...: the exit status, stderr in err.txt.
expect() {
    local want=$1
    shift
    "$ddigen" "$@" >out.txt 2>err.txt </dev/null
    local rc=$?
    local shown
    shown=$(printf '%q ' "$@" | cut -c1-100)
    if [ $rc -eq "$want" ]; then ok "exit $rc: $shown"; else fail "exit $rc, want $want: $shown: $(head -2 err.txt)"; fi
    return 0
}
# expect_msg RC TEXT ARGS...: also one stderr line contains TEXT.
expect_msg() {
    local want=$1 text=$2
    shift 2
    expect "$want" "$@"
    grep -qF -- "$text" err.txt && ok "  says: $text" || fail "  stderr lacks '$text': $(head -2 err.txt)"
}

# ---- usage errors: exit 2, one line naming the mistake --------------------
expect 2
expect_msg 2 "unknown command '--bogus'" --bogus
for cmd in layout docs diff spec lint generate validate overlay; do
    expect_msg 2 "$cmd: unknown option '--bogus'" $cmd --bogus
done
for cmd in emit trace; do expect 2 $cmd --bogus; done
expect_msg 2 "layout: unknown option '-Z'" layout -Z
expect_msg 2 "layout: option '-o' needs a value" layout -o
expect_msg 2 "layout: option '-j' needs a value" layout -j
expect_msg 2 "docs: option '-o' needs a value" docs page.md -o
expect_msg 2 "diff: option '--format' needs a value" diff a b --format
expect_msg 2 "spec: option '--layout' needs a value" spec --layout
expect_msg 2 "lint: option '--sarif' needs a value" lint --sarif
expect_msg 2 "generate: option '--depfile' needs a value" generate -o d --depfile
expect_msg 2 "overlay: option '-I' needs a value" overlay -I
expect_msg 2 "lint: option '--help' takes no value" lint --help=yes
expect 2 emit -o
expect 2 trace --spec
# extra arguments
expect_msg 2 "layout: unexpected argument 'extra'" layout -o x.xml extra
expect_msg 2 "overlay: unexpected argument 'extra'" overlay -I . -o x.json extra
expect_msg 2 "diff needs OLD.xml and NEW.xml, 3 given" diff a b c
expect_msg 2 "no other arguments" spec --layout "$layout" -o x.xml extra
expect_msg 2 "lint needs SPEC.xml" lint a b
expect_msg 2 "generate needs -o DIR and no extra arguments" generate -o d extra
expect 2 emit --spec s -o d extra
expect 2 trace a b --spec s
# missing operands
expect_msg 2 "docs: no PATH given" docs -o x.xml
expect_msg 2 "docs: missing -o FILE" docs page.md
expect_msg 2 "validate: no spec file given" validate
expect_msg 2 "validate: no spec file given" validate --
[ ! -e x.xml ] && [ ! -e x.json ] && [ ! -e d ] && ok "no usage error wrote a file" || fail "a usage error wrote a file"
# help is not an error
for cmd in layout docs diff spec lint emit generate trace validate overlay; do expect 0 $cmd --help; done

# ---- "--" before file names ----------------------------------------------
cp "$layout" ./-layout.xml
expect 0 validate -- -layout.xml
expect 0 validate -- "$layout" -layout.xml
expect_msg 2 "validate: unknown option '-layout.xml'" validate -layout.xml
expect 0 diff -- -layout.xml "$layout"
expect 0 diff --format json -- "$layout" -layout.xml
cp "$src/tests/fixtures/docs/ns-fixture-_dxgk_widgetflags.md" ./-page.md
expect 0 docs --no-syntax -q -o docs.xml -- -page.md
grep -q "_DXGK_WIDGETFLAGS" docs.xml && ok "docs read the page named -page.md" || fail "docs.xml lacks the page"
expect_msg 2 "docs: unknown option '-page.md'" docs --no-syntax -q -o docs2.xml -page.md
expect 0 spec -q --layout "$layout" --docs docs.xml -o spec.xml
cp spec.xml ./-spec.xml
"$ddigen" lint spec.xml >/dev/null 2>&1
want=$?
expect $want lint -- -spec.xml
expect $want lint -o lint.txt -- -spec.xml
printf 'not cbor' >plain.cbor
cp plain.cbor ./-x.cbor
"$ddigen" trace --spec spec.xml plain.cbor >/dev/null 2>&1
want=$?
expect $want trace --spec spec.xml -- -x.cbor
grep -q "unrecognized\|unknown option" err.txt && fail "trace took -x.cbor after -- for an option" ||
    ok "trace reads -x.cbor after -- as a file"
expect 0 overlay -o ov.json -I "$src/tests/fixtures/wdk/10.0.26100.0/km" --

# ---- quoted input: escaped, cut, one line --------------------------------
check_safe() {
    local what=$1
    if raw_controls err.txt; then fail "$what: raw control byte on stderr"; else ok "$what: no raw control byte"; fi
}
expect 2 $'--\e[31mred\nforged: error: x'
check_safe "unknown command"
head -1 err.txt | grep -qxF "ddigen: error: unknown command '--\\x1B[31mred\\nforged: error: x'" &&
    ok "unknown command shown escaped on one line" || fail "unknown command: $(head -2 err.txt | cat -A)"
expect 2 layout $'--bo\agus\e]0;title\a' -o x.xml
check_safe "unknown long option"
grep -qF "unknown option '--bo\\x07gus\\x1B]0;title\\x07'" err.txt && ok "  BEL and ESC shown as \\x07 \\x1B" ||
    fail "  $(head -1 err.txt | cat -A)"
expect 2 diff --format $'js\x9bon\r' a b
check_safe "diff --format"
grep -qF "unknown format 'js\\x9Bon\\r'" err.txt && ok "  a byte that is not UTF-8 and a CR escaped" ||
    fail "  $(head -1 err.txt | cat -A)"
expect 2 diff --format $'\xc2\x9b31m\xe2\x80\xaeevil' a b
grep -qF "unknown format '\\u009B31m\\u202Eevil'" err.txt && ok "  C1 CSI and a bidi override shown as \\u" ||
    fail "  $(head -1 err.txt | cat -A)"
expect 2 diff --format 'ünïcödé' a b
grep -qF "unknown format 'ünïcödé'" err.txt && ok "  valid UTF-8 is kept as it is" || fail "  $(head -1 err.txt)"
long=$(head -c 100000 /dev/zero | tr '\0' 'A')
expect 2 layout --arch "$long" -o x.xml
len=$(head -1 err.txt | wc -c)
[ "$len" -lt 400 ] && grep -qF "...(100000 bytes)" err.txt && ok "a 100000-byte value is cut ($len bytes shown)" ||
    fail "a 100000-byte value: $len bytes, $(head -c 200 err.txt)"
expect 2 lint --bogus=$'\e[2J'"$long"
check_safe "lint --bogus=..."
[ "$(head -1 err.txt | wc -c)" -lt 400 ] && ok "  long unknown option cut" || fail "  $(head -c 200 err.txt)"
# A name from an input file: an arch name with a C1 CSI and a newline (XML
# 1.0 allows both as character references; ESC it does not).
sed "0,/<arch name=\"x86\"/s//<arch name=\"x86\&#155;[31m\&#10;forged\"/" "$layout" >evil.xml
expect 1 validate evil.xml
check_safe "a name from a spec"
grep -qF 'x86\u009B[31m\nforged' err.txt && ok "  the spec's name shown escaped" || fail "  $(head -2 err.txt | cat -A)"
# A page heading with control bytes, reported by docs -v.
printf -- '---\nUID: NS:fixture._TINY\ntitle: TINY (fixture.h)\n---\n\n# TINY structure\n\n## -sec\x1b[1mtion%s\n\nText.\n' \
    "$(head -c 500 /dev/zero | tr '\0' 'x')" >heading.md
expect 0 docs -v --no-syntax -q heading.md -o h.xml
check_safe "a section heading from a page"
grep -qF "section '-sec\\x1B[1mtion" err.txt && grep -qF "...(" err.txt && ok "  the heading shown escaped and cut" ||
    fail "  $(grep section err.txt | head -1 | cut -c1-200 | cat -A)"
# A file name in the location prefix.
printf 'x' >$'bad\nname\e.cbor'
expect 1 trace --spec spec.xml $'bad\nname\e.cbor'
check_safe "a file name before the message"
[ "$(wc -l <err.txt)" -eq 1 ] && grep -qF 'bad\nname\x1B.cbor' err.txt && ok "  shown escaped on one line" ||
    fail "  $(cat -A err.txt | head -2)"

# ---- SARIF: artifact URIs percent-encoded --------------------------------
(cd "$src/tests/fixtures" && "$ddigen" docs lint -q -o "$work/lint-docs.xml") || fail "docs of the lint fixtures"
"$ddigen" spec -q --layout "$layout" --docs lint-docs.xml --overrides "$src/tests/fixtures/lint/overrides.xml" \
    -o lint-spec.xml || fail "spec of the lint fixtures"
# the overrides path is recorded as given; relative, like the pages (as lint_golden.sh does)
sed -i "s|overrides=\"$src/tests/fixtures/lint/|overrides=\"tests/fixtures/lint/|" lint-spec.xml
docs_root='docs dir/100%#1?x:é'
headers_root='kit [x]/a&b=c'
expect 1 lint lint-spec.xml --docs-root "$docs_root" --headers-root "$headers_root" --sarif out.sarif -o lint.txt
if python3 - out.sarif "$docs_root" "$headers_root" <<'PY'; then ok "SARIF URIs are RFC 3986 references, relative to roots that decode to the folders given"; else fail "SARIF URIs"; fi
import json, os, re, sys, urllib.parse
doc = json.load(open(sys.argv[1], encoding='utf-8'))
given = {'DOCS': sys.argv[2], 'HEADERS': sys.argv[3]}
run = doc['runs'][0]
bases = {k: v['uri'] for k, v in run.get('originalUriBaseIds', {}).items()}
bad = 0
encoded = r'([A-Za-z0-9._~/-]|%[0-9A-F]{2})+'
for base, folder in given.items():
    uri = bases.get(base, '')
    parts = urllib.parse.urlsplit(uri)
    if parts.scheme != 'file' or not re.fullmatch(encoded, parts.path) or not uri.endswith('/'):
        print('base', base, 'is not an absolute file: URI of a folder:', uri); bad += 1
    elif urllib.parse.unquote(parts.path, errors='strict') != os.path.join(os.getcwd(), folder) + '/':
        print('base', base, 'decodes to', urllib.parse.unquote(parts.path), 'not', folder); bad += 1
uris = []
for res in run.get('results', []):
    for loc in res.get('locations', []) + res.get('relatedLocations', []):
        a = loc['physicalLocation']['artifactLocation']
        uris.append((a['uri'], a.get('uriBaseId')))
if not uris:
    print('no URIs'); sys.exit(1)
for uri, base in uris:
    if not re.fullmatch(encoded, uri):
        print('not percent-encoded:', uri); bad += 1; continue
    # relative to its root: no root, scheme, query or fragment of its own
    # (stale overrides are located in the overrides file, given as recorded)
    path = urllib.parse.unquote(uri, encoding='utf-8', errors='strict')
    if path.startswith('/') or any(path.startswith(f) for f in given.values()):
        print('not relative to its root:', path); bad += 1
    if urllib.parse.urlsplit(uri).scheme or urllib.parse.urlsplit(uri).fragment or urllib.parse.urlsplit(uri).query:
        print('reads as scheme/query/fragment:', uri); bad += 1
print(len(uris), 'URIs checked')
sys.exit(1 if bad else 0)
PY
grep -qF '/docs%20dir/100%25%231%3Fx%3A%C3%A9/"' out.sarif && ok "  space % # ? : and é encoded" ||
    fail "  $(grep -m1 '"uri"' out.sarif)"

echo "$passed passed, $failures failed"
[ $failures -eq 0 ]
