#!/usr/bin/env bash
# ddigen check-driver over the sample real-kit miniport (tests/fixtures/miniport,
# C++ and C sources against a real WDK): the miniport as it is gives no
# finding; a copy with four planted mismatches (plant.py: a SAL annotation, an
# x86 calling convention, a parameter type, a PAGE callback without
# PAGED_CODE()) gives exactly those, at their file:line, for x86 and x64; the
# SARIF log is valid JSON with the same findings; a source that does not
# compile is exit 2 with clang's error at its line.
# With the official SARIF schema (SCHEMA, as tests/lint fetches it) and
# python3-jsonschema, the log is also validated against it.
#   check_driver.sh DDIGEN SOURCE_DIR KIT_DIR WORK [SCHEMA]
set -u
ddigen=$1 src=$2 kit=$3 work=$4 schema=${5:-}
. "$src/tests/lib/realkit.sh"
realkit_or_skip "$kit"
rm -rf "$work" && mkdir -p "$work"
failures=0 passed=0
fail() { echo "FAIL $*"; failures=$((failures + 1)); }
ok() { echo "ok   $*"; passed=$((passed + 1)); }

"$ddigen" generate --wdk "$kit" -q -o "$work/gen" >"$work/generate.log" 2>&1 ||
    { cat "$work/generate.log"; echo "FAIL generate"; exit 1; }
spec=$work/gen/spec/ddi.xml

check() { # dir arch out -> exit status
    local dir=$1 arch=$2 out=$3
    (cd "$dir" && "$ddigen" check-driver hw_driver.cpp hw_memory.cpp hw_paging.cpp hw_vidpn.c \
        --spec "$spec" --wdk "$kit" --arch "$arch" --sarif "$out.sarif" -o "$out.txt" -- -I. 2>"$out.err")
}
# file:line:kind of each finding, sorted.
findings() { sed -n 's/^\([^:]*\):\([0-9]*\):[0-9]*: \(error\|warning\): .*\[\([a-z-]*\)\]$/\1 \2 \4/p' "$1" | sort; }

# 1. The miniport as written: no finding on either architecture.
for arch in x86 x64; do
    check "$src/tests/fixtures/miniport/src" $arch "$work/clean-$arch"
    rc=$?
    if [ $rc -eq 0 ] && [ ! -s "$work/clean-$arch.txt" ]; then
        ok "clean miniport, $arch: no finding"
    else
        fail "clean miniport, $arch: exit $rc"; cat "$work/clean-$arch.txt" "$work/clean-$arch.err"
    fi
done

# 2. Planted mismatches.
cp -r "$src/tests/fixtures/miniport/src" "$work/planted"
python3 "$src/tests/checkdriver/plant.py" "$work/planted" >"$work/planted.expected" || { echo "FAIL plant"; exit 1; }
for arch in x86 x64; do
    awk -v a=$arch '$4 == "all" || $4 == a { print $1, $2, $3 }' "$work/planted.expected" | sort >"$work/expected-$arch"
    check "$work/planted" $arch "$work/planted-$arch"
    rc=$?
    findings "$work/planted-$arch.txt" >"$work/got-$arch"
    if [ $rc -eq 1 ] && diff -u "$work/expected-$arch" "$work/got-$arch"; then
        ok "planted, $arch: exactly the $(wc -l <"$work/expected-$arch") planted findings (exit 1)"
    else
        fail "planted, $arch: exit $rc"; cat "$work/planted-$arch.txt" "$work/planted-$arch.err"
    fi
    # The SARIF log: valid JSON, the same findings (file, line, ruleId).
    if python3 - "$work/planted-$arch.sarif" "$work/expected-$arch" "$schema" <<'PY'
import json, os, sys
log = json.load(open(sys.argv[1]))
if sys.argv[3] and os.path.exists(sys.argv[3]):
    try:
        import jsonschema
    except ImportError:
        jsonschema = None
    if jsonschema:
        jsonschema.validate(log, json.load(open(sys.argv[3])))
        print("valid against", sys.argv[3])
run = log["runs"][0]
assert log["version"] == "2.1.0"
rules = [r["id"] for r in run["tool"]["driver"]["rules"]]
got = sorted(f'{r["locations"][0]["physicalLocation"]["artifactLocation"]["uri"]} '
             f'{r["locations"][0]["physicalLocation"]["region"]["startLine"]} {r["ruleId"]}'
             for r in run["results"])
assert all(rules[r["ruleIndex"]] == r["ruleId"] for r in run["results"])
want = sorted(open(sys.argv[2]).read().split("\n")[:-1])
assert got == want, (got, want)
PY
    then
        ok "planted, $arch: SARIF is valid JSON with the same findings"
    else
        fail "planted, $arch: SARIF"
    fi
done

# 3. A source that does not compile: exit 2, clang's error at its line, no findings written.
cp -r "$src/tests/fixtures/miniport/src" "$work/broken"
printf '\nstatic int hw_broken = ;\n' >>"$work/broken/hw_vidpn.c"
line=$(wc -l <"$work/broken/hw_vidpn.c")
check "$work/broken" x64 "$work/broken-x64"
rc=$?
if [ $rc -eq 2 ] && grep -q "^hw_vidpn.c:$line:[0-9]*: error:" "$work/broken-x64.err" && [ ! -e "$work/broken-x64.txt" ]; then
    ok "a source that does not compile: exit 2 with clang's error at hw_vidpn.c:$line"
else
    fail "broken source: exit $rc"; cat "$work/broken-x64.err"
fi

# 4. Paging cases (paging_sample.c: code_seg push/pop, __declspec(code_seg), a
#    designated initialiser), with flags after "--" (x86) and from a
#    compile_commands.json (-p, x64): the findings its "expect:" lines name.
mkdir -p "$work/sample"
cp "$src/tests/checkdriver/paging_sample.c" "$work/sample/"
grep -n '/\* expect: ' "$work/sample/paging_sample.c" |
    sed 's/^\([0-9]*\):.*expect: \([a-z-]*\).*/paging_sample.c \1 \2/' | sort >"$work/sample/expected"
printf '[{"directory": "%s", "file": "paging_sample.c", "arguments": ["clang", "-c", "paging_sample.c", "-o", "paging_sample.obj"]}]\n' \
    "$work/sample" >"$work/sample/compile_commands.json"
(cd "$work/sample" && "$ddigen" check-driver paging_sample.c --spec "$spec" --wdk "$kit" --arch x86 -o flags.txt 2>flags.err)
rc_flags=$?
(cd "$work/sample" && "$ddigen" check-driver paging_sample.c -p compile_commands.json --spec "$spec" --wdk "$kit" \
    --arch x64 -o db.txt 2>db.err)
rc_db=$?
findings "$work/sample/flags.txt" >"$work/sample/got-flags"
# -p gives the source as the database names it (absolute): compare base names.
findings "$work/sample/db.txt" | sed 's|^.*/||' >"$work/sample/got-db"
if [ $rc_flags -eq 1 ] && [ $rc_db -eq 1 ] && [ -s "$work/sample/expected" ] &&
    diff -u "$work/sample/expected" "$work/sample/got-flags" && diff -u "$work/sample/expected" "$work/sample/got-db"; then
    ok "paging sample: $(wc -l <"$work/sample/expected") findings, with -- flags (x86) and with -p (x64)"
else
    fail "paging sample: exit $rc_flags / $rc_db"; cat "$work/sample/flags.txt" "$work/sample/flags.err" "$work/sample/db.txt" "$work/sample/db.err"
fi

echo "$passed passed, $failures failed"
[ $failures -eq 0 ]
