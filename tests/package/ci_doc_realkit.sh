#!/usr/bin/env bash
# docs/ci.md followed as written, on a real kit, for a display-only driver
# with a DDI list. The page's `ddigen.yaml` block becomes the driver
# repository's config unchanged (its kit and pages paths are links here to
# ../shared), and its plain-shell block runs unchanged from a fresh shell
# (env -i) at the repository's root; only the network and root are stood
# in for: `curl` copies a release tarball made from this source tree,
# `sudo .../install-deps.sh` is skipped (the dependencies are installed).
# Checks: nothing committed -> exit 3, every file "missing"; the printed
# regeneration command run as printed -> the next run exits 0, and the
# page's diff step too; a deleted file -> exit 3 naming it "missing"; an
# edited one -> "differs"; a struct the DDI list reaches changed in a copy
# of the kit -> the script exits 3 and the diff step fails on ABI (exit 12,
# --fail-on abi) naming the record; and the GitHub Actions job of the page
# runs the same commands as the shell blocks.
#   ci_doc_realkit.sh SOURCE_DIR KIT_DIR DOCS_DIR WORK
# Exit 77 (skipped) without the kit.
set -u
src=$1 docs_arg=$3 work=$4
. "$src/tests/lib/realkit.sh"
realkit_or_skip "$2"
rm -rf "$work" && mkdir -p "$work"
work=$(cd "$work" && pwd -P)
failures=0 passed=0
ok() { echo "ok   $*"; passed=$((passed + 1)); }
fail() { echo "FAIL $*"; failures=$((failures + 1)); }
page=$src/docs/ci.md

# The Nth (default first) ```LANG block of the section "## HEADING" of the page.
page_block() {
    awk -v h="## $1" -v open="\`\`\`$2" -v nth="${3:-1}" '
        /^## / { in_section = $0 == h; next }
        in_section && !in_block && $0 == open { in_block = 1; seen++; next }
        in_block && $0 == "```" { in_block = 0; if (seen == nth) exit; next }
        in_block && seen == nth { print }' "$page"
}
page_block "ddigen.yaml" yaml >"$work/config.yaml"
page_block "Plain shell (any CI system)" sh >"$work/recipe.sh"
page_block "Plain shell (any CI system)" sh 2 >"$work/diff-step.sh"
page_block "GitHub Actions" yaml >"$work/workflow.yml"
for f in config.yaml recipe.sh diff-step.sh workflow.yml; do
    [ -s "$work/$f" ] || { echo "FAIL docs/ci.md has no $f block where expected"; exit 1; }
done

# The driver repository the page describes.
driver=$work/driver
mkdir -p "$driver/ddi/include" "$driver/third_party/wdk/Include" "$driver/docs"
cp "$work/config.yaml" "$driver/ddigen.yaml"
cp "$src/tests/emit/display_only.list" "$driver/ddi/callbacks.list"
kit_path=$(sed -n 's/^wdk: *//p' "$driver/ddigen.yaml")
ln -s "$kit" "$driver/$kit_path"
if [ -d "$docs_arg" ]; then
    ln -s "$(cd "$docs_arg" && pwd -P)" "$driver/docs/ddi"
else
    echo "note: no DDI pages at $docs_arg: the config's docs: line is dropped"
    sed -i '/^docs:/d' "$driver/ddigen.yaml"
fi

# The release and the two stand-ins.
version=$(sed -n 's/^project(ddigen VERSION \([0-9.]*\).*/\1/p' "$src/CMakeLists.txt")
url=$(grep -o 'https://[^ ]*ddigen-[0-9.]*\.tar\.gz' "$work/recipe.sh")
mkdir -p "$work/release" "$work/bin" "$work/home"
tar -C "$src" --exclude=./build --exclude='./build-*' --exclude=./.git \
    --transform "s,^\\.,ddigen-$version," -czf "$work/release/$(basename "$url")" .
cat >"$work/bin/curl" <<EOF
#!/bin/sh
# test stand-in: the release from the source tree
out='' url=''
while [ \$# -gt 0 ]; do case "\$1" in -o) out=\$2; shift ;; -*) ;; *) url=\$1 ;; esac; shift; done
cp "$work/release/\$(basename "\$url")" "\$out"
EOF
cat >"$work/bin/sudo" <<'EOF'
#!/bin/sh
# test stand-in: the build dependencies are installed already
case "$1" in */install-deps.sh) echo "(install-deps.sh skipped by the test)"; exit 0 ;; esac
exec "$@"
EOF
chmod +x "$work/bin/curl" "$work/bin/sudo"
launcher=''
command -v ccache >/dev/null && launcher="-DCMAKE_C_COMPILER_LAUNCHER=ccache"

# The page's shell block from a fresh shell at the repository's root, as a
# fresh checkout has it (the unpacked release gone; ddigen-ci/ kept, as a
# CI cache would keep it, so ddigen is built once).
run_block() { # LOG SCRIPT
    (cd "$driver" && env -i HOME="$work/home" PATH="$work/bin:/usr/local/bin:/usr/bin:/bin" \
        DDIGEN_CMAKE_ARGS="$launcher" bash "$2") >"$work/$1.log" 2>&1
}
run_recipe() {
    rm -rf "$driver/ddigen-src" "$driver/ddigen.tar.gz"
    run_block "$1" "$work/recipe.sh"
}
# The page's diff step, after a run of the recipe (it reads the spec the
# recipe generated), from a fresh shell at the repository's root.
run_diff() { run_block "$1" "$work/diff-step.sh"; }
show() { sed 's/^/    | /' "$work/$1.log" | grep -v 'lint findings in'; }

# 1. Nothing committed: stale, every file missing, and the command to run.
run_recipe first
rc=$?
ddigen=$driver/ddigen-ci/ddigen/bin/ddigen
outputs=$("$ddigen" emit --no-config --list-outputs --outputs asserts,skeleton)
missing=$(grep -c 'error: stale: missing' "$work/first.log")
[ $rc -eq 3 ] && [ "$missing" -eq "$(echo "$outputs" | wc -l)" ] &&
    ok "nothing committed: exit 3, all $missing files 'missing'" || { show first; fail "first run: exit $rc"; }
regen=$(grep -A1 'regenerate with' "$work/first.log" | tail -1 | sed 's/^ *//')
case "$regen" in
*"ddigen generate --config ddigen.yaml "*"-o ddi "*) ok "prints the regeneration command: $regen" ;;
*) show first; fail "no regeneration command printed" ;;
esac
[ -x "$ddigen" ] && [ -x "$driver/ddigen-ci/ddigen/bin/ddigen-ci" ] &&
    ok "ddigen and ddigen-ci installed from the release" || fail "ddigen-ci not installed"

# 2. The command as printed (ddigen from the release), then clean.
(cd "$driver" && eval "${regen/#ddigen /\"$ddigen\" }") >"$work/regen.log" 2>&1 ||
    { cat "$work/regen.log"; fail "the printed command failed"; }
run_recipe clean
rc=$?
[ $rc -eq 0 ] && grep -q 'committed generated code is current' "$work/clean.log" &&
    ok "after the printed command: clean, exit 0" || { show clean; fail "clean run: exit $rc"; }
grep -q 'KMDDOD_INITIALIZATION_DATA' "$driver/ddi/include/ddi_skeleton.c" &&
    ! grep -q 'DxgkDdiBuildPagingBuffer' "$driver/ddi/include/ddi_skeleton.h" &&
    ok "the committed skeleton is the display-only driver's listed callbacks" ||
    fail "the skeleton is not the display-only list's"
grep -q '<param name="driver-kind" value="display-only"/>' "$driver/ddi/spec/ddi.xml" &&
    head -1 "$driver/ddi/include/ddi_skeleton.h" | grep -q '^/\* ddigen options: ddi-list=<28 callbacks' &&
    ok "options stamped into ddi.xml and each file's first line" || fail "options not stamped"
[ -s "$driver/ddigen-ci/ddigen.sarif" ] && ok "SARIF written" || echo "note: no SARIF (no pages)"
run_diff clean-diff
rc=$?
[ $rc -eq 0 ] && ok "the diff step on the pinned kit: exit 0" || { show clean-diff; fail "clean diff: exit $rc"; }

# 3. A deleted file: named, missing.
mv "$driver/ddi/include/ddi_skeleton.h" "$work/kept.h"
run_recipe missing
rc=$?
[ $rc -eq 3 ] && grep -q 'ddi/include/ddi_skeleton.h: error: stale: missing' "$work/missing.log" &&
    [ "$(grep -c 'error: stale' "$work/missing.log")" -eq 1 ] &&
    ok "a deleted file: exit 3 naming it 'missing', and only it" || { show missing; fail "missing run: exit $rc"; }
mv "$work/kept.h" "$driver/ddi/include/ddi_skeleton.h"

# 4. An edited file: named, differs.
echo '/* edited by hand */' >>"$driver/ddi/include/ddi_layout_asserts.h"
run_recipe stale
rc=$?
[ $rc -eq 3 ] && grep -q 'ddi/include/ddi_layout_asserts.h: error: stale: differs' "$work/stale.log" &&
    [ "$(grep -c 'error: stale' "$work/stale.log")" -eq 1 ] &&
    ok "an edited file: exit 3 naming it 'differs', and only it" || { show stale; fail "stale run: exit $rc"; }
grep -A1 'regenerate with' "$work/stale.log" | grep -q -- '--config ddigen.yaml --previous ddi/spec/ddi.xml -o ddi' &&
    ok "with a committed spec the command keeps its stable IDs (--previous)" || fail "no --previous in the command"

# 5. A struct the display-only list reaches changes in the kit (a copy, one
#    field retyped): the committed code is stale, and the diff step fails
#    on ABI naming the record. DXGKARG_QUERYADAPTERINFO is the argument of
#    DxgkDdiQueryAdapterInfo, a listed callback.
sed -i '$d' "$driver/ddi/include/ddi_layout_asserts.h" # step 4's edit undone
changed=$work/kit-changed record=DXGKARG_QUERYADAPTERINFO
cp -rL "$kit" "$changed" && chmod -R u+w "$changed"
header=$(cd "$changed" && ls km/d3dkmddi.h shared/d3dkmddi.h 2>/dev/null | head -1)
# (the kit's lines end in CR LF)
sed -i "/^typedef struct _$record\r\?\$/,/^} $record;/ s/^\( *\)UINT\( *\)InputDataSize;/\1UINT64\2InputDataSize;/" \
    "$changed/$header"
if ! grep -q 'UINT64 *InputDataSize;' "$changed/$header"; then
    fail "could not retype $record.InputDataSize in the kit's copy ($header)"
else
    rm "$driver/$kit_path" && ln -s "$changed" "$driver/$kit_path"
    run_recipe changed
    rc=$?
    [ $rc -eq 3 ] && grep -q 'ddi/include/ddi_layout_asserts.h: error: stale: differs' "$work/changed.log" &&
        ok "a changed struct: the script exits 3, the asserts 'differs'" || { show changed; fail "changed run: exit $rc"; }
    run_diff changed-diff
    rc=$?
    # --fail-on abi: bits 4 (a change) and 8 (an incompatible one).
    [ $rc -eq 12 ] && grep -q "summary: .* [1-9][0-9]* ABI-breaking" "$work/changed-diff.log" &&
        grep -q "layout changed  record $record: .*\[ABI-breaking\]" "$work/changed-diff.log" &&
        ok "a changed struct: the diff step exits 12 (--fail-on abi) naming $record" ||
        { show changed-diff; fail "changed diff: exit $rc, or $record not named"; }
    rm "$driver/$kit_path" && ln -s "$kit" "$driver/$kit_path"
fi

# 6. The GitHub Actions job runs the shell blocks' commands: the release
#    steps and the script's arguments, with $RUNNER_TEMP for the folders.
python3 - "$work/workflow.yml" "$work/recipe.sh" "$work/diff-step.sh" <<'PY' && ok "GitHub Actions job = the shell blocks' commands" ||
import re, shlex, sys, yaml
job = yaml.safe_load(open(sys.argv[1]))['jobs']['ddigen']
runs = [s['run'] for s in job['steps'] if 'run' in s]
shell = open(sys.argv[2]).read() + open(sys.argv[3]).read()
def commands(text):
    text = re.sub(r'\\\n\s*', ' ', text)
    out = []
    for l in text.splitlines():
        words = shlex.split(l, comments=True)
        while words:   # a && b: two commands
            n = words.index('&&') if '&&' in words else len(words)
            out.append(words[:n])
            words = words[n + 1:]
    return out
def normal(words):
    out = []
    for w in words:
        w = w.replace('$RUNNER_TEMP/', '').replace('$PWD/', '')
        w = w.replace('$DDIGEN_RELEASE_URL/ddigen-$DDIGEN_VERSION.tar.gz', 'RELEASE').replace('sudo', '')
        out.append(re.sub(r'https://\S+/ddigen-[0-9.]+\.tar\.gz', 'RELEASE', w))
    return [w for w in out if w]
gh = [normal(c) for r in runs for c in commands(r) if 'apt-get' not in ' '.join(c)]
sh = [normal(c) for c in commands(shell)]
# The folder the release is unpacked into: made by each (mkdir -p in the job).
gh = [c for c in gh if c[0] != 'mkdir']
sh = [c for c in sh if c[0] != 'mkdir']
if gh != sh:
    print('GitHub Actions:', *gh, sep='\n  ')
    print('plain shell:', *sh, sep='\n  ')
    sys.exit(1)
PY
    fail "the GitHub Actions job and the shell blocks differ"

echo "--- transcript: clean"; show clean
echo "--- transcript: a deleted file"; show missing
echo "--- transcript: an edited file"; show stale
echo "--- transcript: a changed struct, the diff step"; show changed-diff
echo "$passed passed, $failures failed"
[ $failures -eq 0 ]
