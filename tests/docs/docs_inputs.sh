#!/usr/bin/env bash
# `ddigen docs` on hostile or broken input (issue 10): what it writes always
# validates (an unnamed prototype parameter, the ../shared corpus when
# present), deep nesting is refused with file:line instead of overflowing
# the stack, symlink loops are read once, and a run where every page fails
# keeps the previous output and exits 1.
#   docs_inputs.sh DDIGEN INPUTS FIXTURES SHARED WORK
set -u
ddigen=$1 inputs=$2 fixtures=$3 shared=$4 work=$5
rm -rf "$work" && mkdir -p "$work"
failures=0
ok() { echo "ok   $*"; }
fail() { echo "FAIL $*"; failures=$((failures + 1)); }

# Item 4: an unnamed parameter gives a <decl> with an empty path, which the
# schema accepts; the output validates.
"$ddigen" docs -q "$inputs/nc-fixture-dxgkddi_unnamedparam.md" -o "$work/unnamed.xml" 2>"$work/err.txt" &&
    ok "page with an unnamed parameter read" || { fail "unnamed parameter page refused"; cat "$work/err.txt"; }
grep -q '<decl path="" type="const HANDLE"' "$work/unnamed.xml" && ok "unnamed parameter kept as <decl path=\"\">" ||
    fail "no decl for the unnamed parameter"
"$ddigen" validate "$work/unnamed.xml" && ok "its output validates" || fail "its output does not validate"
if [ -d "$shared/ddi-docs" ]; then
    "$ddigen" docs -q "$shared/ddi-docs" -o "$work/corpus.xml" 2>"$work/err.txt" && "$ddigen" validate "$work/corpus.xml" &&
        ok "the ../shared corpus gives a valid document" || { fail "../shared corpus"; head "$work/err.txt"; }
else
    echo "SKIPPED: ../shared/ddi-docs absent"
fi

# Item 6: 100,000 nested quotes or list items: an error at the line, exit 1.
head="---\nUID: NS:fixture._DEEP\ntitle: DEEP\n---\n\n# DEEP structure\n\n"
python3 -c "import sys; sys.stdout.write('$head' + '>' * 100000 + ' text\n')" > "$work/quotes.md"
python3 -c "import sys; sys.stdout.write('$head' + '- ' * 100000 + 'text\n')" > "$work/lists.md"
for f in quotes lists; do
    "$ddigen" docs --no-syntax -q "$work/$f.md" -o "$work/$f.xml" >"$work/out.txt" 2>&1
    rc=$?
    if [ $rc -eq 1 ] && grep -q "$f.md:8: error: quotes or lists nested more than 64 levels deep" "$work/out.txt"; then
        ok "100,000 nested $f refused"
    else fail "100,000 nested $f: exit $rc"; head -3 "$work/out.txt"; fi
done

# Item 7: inputs that took libyaml and cmark-gfm quadratic time (100 KB of
# '[' in the front matter: minutes; a table row of 100,000 cells: 40 s) are
# refused at their line before those libraries see them.
python3 -c "import sys; sys.stdout.write('---\nUID: NS:fixture._FLOW\ntitle: ' + '[' * 100000 + '\n---\n\n# FLOW structure\n')" > "$work/flow.md"
"$ddigen" docs --no-syntax -q "$work/flow.md" -o "$work/flow.xml" >"$work/out.txt" 2>&1
rc=$?
[ $rc -eq 1 ] && grep -q "flow.md:3: error: front matter: \[ or { nested more than 64 levels deep" "$work/out.txt" &&
    ok "100 KB of [ in the front matter refused at its line" || { fail "front matter [[[: exit $rc"; head -3 "$work/out.txt"; }
python3 -c "import sys; sys.stdout.write('$head' + '|a' * 100000 + '|\n' + '|-' * 100000 + '|\n')" > "$work/wide.md"
"$ddigen" docs --no-syntax -q "$work/wide.md" -o "$work/wide.xml" >"$work/out.txt" 2>&1
rc=$?
[ $rc -eq 1 ] && grep -q "wide.md:8: error: a line with more than 256 '|' (table cells)" "$work/out.txt" &&
    ok "a table row of 100,000 cells refused at its line" || { fail "wide table row: exit $rc"; head -3 "$work/out.txt"; }

# Item 8: a folder with one page and a link back up reads the page once.
mkdir -p "$work/loop/sub"
cp "$fixtures/ns-fixture-_dxgk_widgetflags.md" "$work/loop/"
ln -s .. "$work/loop/sub/up"
ln -s ../loop "$work/loop/sub/again"
"$ddigen" docs --no-syntax -q "$work/loop" -o "$work/loop.xml" 2>"$work/err.txt"
pages=$(grep -c "<page " "$work/loop.xml" 2>/dev/null)
[ "$pages" = 1 ] && ok "symlink loop: the page is read once" || fail "symlink loop: $pages pages"

# Item 10: every input fails -> exit 1, the previous output is kept; an
# empty folder is an error too (no page read), not an empty document.
cp "$work/unnamed.xml" "$work/keep.xml"
printf '' > "$work/empty.md"
"$ddigen" docs --no-syntax -q "$work/empty.md" -o "$work/keep.xml" 2>/dev/null
rc=$?
[ $rc -eq 1 ] && cmp -s "$work/keep.xml" "$work/unnamed.xml" && ok "all inputs failing: exit 1, old output kept" ||
    fail "all inputs failing: exit $rc, output $(cmp -s "$work/keep.xml" "$work/unnamed.xml" && echo kept || echo replaced)"
mkdir -p "$work/nothing"
"$ddigen" docs --no-syntax -q "$work/nothing" -o "$work/keep.xml" 2>"$work/err.txt"
rc=$?
[ $rc -eq 1 ] && grep -q "no reference page was read" "$work/err.txt" && cmp -s "$work/keep.xml" "$work/unnamed.xml" &&
    ok "empty folder: exit 1, old output kept" || fail "empty folder: exit $rc"

echo "$failures failed"
[ $failures -eq 0 ]
