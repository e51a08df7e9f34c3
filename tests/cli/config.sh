#!/usr/bin/env bash
# ddigen.yaml on the fixture kit: found in the current folder or given with
# --config (its relative paths then resolve against its own folder); a flag
# overrides its key (--all drops the list, --driver-kind the kind); unknown
# keys and bad values are usage errors at FILE:LINE:COL with nothing
# written; the options generate used are stamped into ddi.xml and each
# file, and `emit --check` on that spec alone reproduces the files.
#   config.sh DDIGEN SOURCE_DIR WORK
set -u
ddigen=$1 src=$2 work=$3
rm -rf "$work" && mkdir -p "$work/repo/ddi" "$work/elsewhere"
failures=0 passed=0
ok() { echo "ok   $*"; passed=$((passed + 1)); }
fail() { echo "FAIL $*"; failures=$((failures + 1)); }
kit=$src/tests/fixtures/wdk/10.0.26100.0
repo=$work/repo
printf 'DxgkDdiAddDevice\nDxgkDdiStartDevice = MyStart\n' >"$repo/ddi/callbacks.list"
cat >"$repo/ddigen.yaml" <<EOF
# a display-only driver
wdk: $kit
outputs: [asserts, skeleton]
driver-kind: display-only
ddi-list: ddi/callbacks.list
ddi-version: WDDM2_0..
EOF
cd "$repo" || exit 1

# Found in the current folder.
"$ddigen" generate -q -o out 2>"$work/gen.txt" && ok "generate reads ./ddigen.yaml" || { cat "$work/gen.txt"; fail "generate"; }
spec=out/spec/ddi.xml
grep -q '<generated-with outputs="asserts,skeleton">' "$spec" &&
    grep -q '<param name="driver-kind" value="display-only"/>' "$spec" &&
    grep -q '<param name="ddi-version" value="WDDM2_0.."/>' "$spec" &&
    ok "the options are stamped into ddi.xml" || fail "no <generated-with> in the spec"
! grep -q 'list-file' "$spec" && ok "  without the list's path (a machine's)" || fail "list-file stamped"
line='/* ddigen options: ddi-list=<2 callbacks, fnv1a '
for f in out/include/*; do
    head -1 "$f" | grep -qF "$line" || fail "$f: first line $(head -1 "$f")"
done
[ "$(ls out/include | wc -l)" -eq 4 ] && ok "  and as the first line of each of the 4 files" || fail "files: $(ls out/include)"

# emit --check on the stamped spec alone: the same files; an option given
# overrides the stamp (and so the files differ).
"$ddigen" emit --no-config --spec "$spec" -o out/include --check && ok "emit --check from the stamp alone: current" ||
    fail "emit --check with the stamp"
"$ddigen" emit --no-config --spec "$spec" -o out/include --check --all 2>"$work/all.txt"
[ $? -eq 3 ] && grep -q 'ddi_skeleton.c: error: stale: differs' "$work/all.txt" &&
    ok "emit --check --all (overriding the stamped list): differs" || { cat "$work/all.txt"; fail "emit --all"; }
rm out/include/ddi_skeleton.h
"$ddigen" emit --spec "$spec" -o out/include --check 2>"$work/missing.txt"
[ $? -eq 3 ] && grep -q 'out/include/ddi_skeleton.h: error: stale: missing' "$work/missing.txt" &&
    ok "a deleted file is 'missing'" || { cat "$work/missing.txt"; fail "missing"; }

# A flag overrides its key: no conflict, the flag's value is used.
"$ddigen" generate -q -o full --driver-kind full --all 2>"$work/override.txt" &&
    grep -q '<param name="driver-kind" value="full"/>' full/spec/ddi.xml &&
    ! grep -q '<param name="ddi-list"' full/spec/ddi.xml && [ "$(ls full/include | wc -l)" -eq 4 ] &&
    ok "--driver-kind and --all override the config's kind and list (--all, the default, is not stamped)" ||
    { cat "$work/override.txt"; fail "override"; }
"$ddigen" generate -q -o nostamp --no-config --wdk "$kit" 2>/dev/null && ! grep -q 'generated-with' nostamp/spec/ddi.xml &&
    ! grep -q 'ddigen options' nostamp/include/ddi_layout_asserts.h &&
    ok "--no-config: the defaults, no stamp" || fail "--no-config"

# The list the config names is an input of the depfile.
"$ddigen" generate -q -o dep --depfile dep.d 2>/dev/null && grep -q 'ddi/callbacks.list' dep.d &&
    ok "--depfile lists the config's DDI list" || fail "depfile without the list: $(cat dep.d 2>/dev/null | head -c 300)"

# A value that would open or close a comment does neither in the line.
"$ddigen" emit --no-config --spec "$spec" -o odd --param 'note=a*/b/*c' 2>/dev/null &&
    head -1 odd/ddi_layout_asserts.h | grep -qF 'note=a?/b?*c */' &&
    [ "$(head -1 odd/ddi_layout_asserts.h | grep -o '\*/' | wc -l)" -eq 1 ] &&
    ok "the comment line keeps '*/' and '/*' of a value out" || fail "comment: $(head -1 odd/ddi_layout_asserts.h)"

# --config from another folder: relative paths against the file's folder.
(cd "$work/elsewhere" && "$ddigen" generate --config ../repo/ddigen.yaml -q -o out) 2>"$work/elsewhere.txt" &&
    grep -q 'DxgkDdiStartDevice=MyStart' "$work/elsewhere/out/spec/ddi.xml" &&
    ok "--config DIR/FILE: ddi-list found beside the file" || { cat "$work/elsewhere.txt"; fail "--config elsewhere"; }

# Refused at FILE:LINE:COL, exit 2, nothing written.
refused() { # NAME YAML EXPECTED-MESSAGE [COMMAND...]
    local name=$1 text=$2 want=$3
    shift 3
    mkdir -p "$work/bad-$name" && printf '%s' "$text" >"$work/bad-$name/ddigen.yaml"
    (cd "$work/bad-$name" && "$ddigen" "$@") >"$work/bad-$name/out.txt" 2>&1
    local rc=$?
    if [ $rc -eq 2 ] && grep -qF "$want" "$work/bad-$name/out.txt" && [ ! -e "$work/bad-$name/o" ]; then
        ok "$name: exit 2, $want"
    else
        fail "$name: exit $rc"
        cat "$work/bad-$name/out.txt"
    fi
}
refused unknown-key $'wdk: k\nwdkk: k\n' "ddigen.yaml:2:1: error: unknown key 'wdkk'" generate -o o
refused bad-choice $'driver-kind: display_only\n' \
    "ddigen.yaml:1:14: error: 'driver-kind': 'display_only'; expected full or display-only" generate -o o
refused not-a-list $'docs: {a: b}\n' "ddigen.yaml:1:7: error: 'docs': expected" generate -o o
refused empty $'wdk: ""\n' "ddigen.yaml:1:6: error: 'wdk': an empty value" generate -o o
refused twice $'outputs: asserts\noutputs: skeleton\n' "ddigen.yaml:2:1: error: 'outputs' given twice (first at line 1)" \
    emit --spec x -o o
refused not-yaml $'outputs: [asserts\n' "ddigen.yaml:2:1: error: not YAML" lint x.xml
refused bad-version $'ddi-version: "2.0"\n' "ddigen.yaml:1:14: error: --ddi-version '2.0'" emit --spec x -o o
refused bad-param $'param:\n  Scope: all\n' "ddigen.yaml:2:10: error: --param 'Scope=all'" generate -o o
refused bad-bool $'werror: maybe\n' "ddigen.yaml:1:9: error: 'werror': 'maybe'; expected true or false" generate -o o
refused two-docs $'wdk: a\n---\nwdk: b\n' "ddigen.yaml:3:1: error: a second YAML document" diff a b
refused missing-config '' "nope.yaml: error: cannot open" generate --config nope.yaml -o o
# A key for another command is still checked: every command refuses the file alike.
refused checked-for-all $'wdk: [a, b]\n' "ddigen.yaml:1:6: error: 'wdk': expected" diff a b
refused bad-fail-on $'fail-on: bogus\n' "ddigen.yaml:1:10: error: 'fail-on': 'bogus'; expected any, source or abi" diff a b
# diff takes its scope from it.
mkdir -p "$work/diff-scope" && printf 'scope: all\n' >"$work/diff-scope/ddigen.yaml"
(cd "$work/diff-scope" && "$ddigen" diff "$src/tests/diff/inputs/old.xml" "$src/tests/diff/inputs/new.xml" >out.txt)
grep -q 'kernel records included' "$work/diff-scope/out.txt" && ok "diff: scope from the config" ||
    fail "diff did not take scope: $(sed -n 2p "$work/diff-scope/out.txt")"
# --help never reads it.
(cd "$work/bad-unknown-key" && "$ddigen" generate --help >/dev/null) && ok "--help with a broken config: 0" ||
    fail "--help read the config"

# lint takes the SARIF roots from it.
printf 'docs-root: pages/ddi\n' >"$work/lint.yaml"
"$ddigen" generate --no-config --wdk "$kit" --docs "$src/tests/fixtures/docs" -q -o "$work/linted" 2>/dev/null
"$ddigen" lint --config "$work/lint.yaml" "$work/linted/spec/ddi.xml" --sarif "$work/l.sarif" -o "$work/l.txt" 2>/dev/null
# (the root is the run's originalUriBaseIds entry; the URIs are relative to it)
grep -q '"uri": *"file://[^"]*/pages/ddi/"' "$work/l.sarif" && ok "lint: docs-root from the config" ||
    fail "lint did not take docs-root ($(grep -m1 -o '"uri": *"[^"]*"' "$work/l.sarif"))"
echo "$passed passed, $failures failed"
[ $failures -eq 0 ]
