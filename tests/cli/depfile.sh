#!/usr/bin/env bash
# `generate --depfile` (issue 24): every path GNU make and Ninja can read back
# is escaped so that both read it as it is, and both are run on the depfile:
# with nothing touched neither wants to rebuild, touching any input makes
# both want to, and Ninja's own record of the depfile (ninja -t deps) lists
# exactly the inputs. A path they would misread (a newline, a tab, quotes,
# '*', '=', ...) is an error with exit 1 and no depfile, not a broken file.
#   depfile.sh DDIGEN WDK_DIR DOCS_DIR WORK
set -u
ddigen=$1 wdk=$2 docs=$3 work=$4
rm -rf "$work" && mkdir -p "$work"
work=$(realpath "$work")
failures=0 passed=0
ok() { echo "ok   $*"; passed=$((passed + 1)); }
fail() { echo "FAIL $*"; failures=$((failures + 1)); }
have() { command -v "$1" >/dev/null 2>&1; }
page='Notes kept beside the reference pages; not a page of the reference.'

# Names both tools can read back, as a folder walked for pages and a page
# inside it: escaped space, '#', ':' and '$', backslashes before a space
# doubled, and the characters both read as they are.
good=('sp ace' 'ha#sh' 'co:lon' 'dol$lar' 'dd$$' 'per%cent' 'back\slash' 'bs\ space' 'bs2\\ space'
      'ex!cl' 'at@' 'comma,' 'plus+' 'til~de' 'br{ace}' 'pa(r)en x' 'open[only' 'é' '#lead' 'a  two')
mkdir -p "$work/docs-good"
for n in "${good[@]}"; do
    mkdir -p "$work/docs-good/$n"
    printf '%s\n' "$page" >"$work/docs-good/$n/$n.md"
done
# The rule's target (OUT/spec/ddi.xml) with the same kinds of characters.
out="$work/out #1:\$x dir"
dep="$work/gen.d"
"$ddigen" generate --wdk "$wdk" --docs "$docs" --docs "$work/docs-good" -q -o "$out" --outputs asserts \
    --depfile "$dep" 2>"$work/good.err"
rc=$?
[ $rc -eq 0 ] && [ -s "$dep" ] && ok "generate --depfile with ${#good[@]} awkward names: exit 0" ||
    fail "generate --depfile with awkward names: exit $rc: $(head -3 "$work/good.err")"
target="$out/spec/ddi.xml"
inputs=()
for n in "${good[@]}"; do inputs+=("$work/docs-good/$n" "$work/docs-good/$n/$n.md"); done
# As GCC's -MD writes them, with ':' escaped as Make needs.
for want in 'sp\ ace' 'ha\#sh' 'co\:lon' 'dol$$lar' 'dd$$$$' 'per%cent' 'back\slash' 'bs\\\ space' \
    'bs2\\\\\ space' 'pa(r)en\ x' '\#lead' 'a\ \ two'; do
    grep -qF "docs-good/$want" "$dep" && ok "depfile spells '$want'" || fail "depfile lacks '$want'"
done
first=$(head -1 "$dep")
escaped_target=${first%: \\}
[ "$escaped_target" = "$work/out\\ \\#1\\:\$\$x\\ dir/spec/ddi.xml" ] && ok "target escaped: $escaped_target" ||
    fail "target line: $first"

# GNU make: the target's rule plus the depfile, `make -q` is the question
# "would you rebuild?" (0 no, 1 yes, 2 could not read the makefiles).
if have make; then
    mk="$work/make"
    mkdir -p "$mk"
    printf '%s:\n\ttouch '"'"'$@'"'"'\ninclude %s\n' "$escaped_target" "$dep" >"$mk/Makefile"
    touch "$target"
    make -q -C "$mk" "$target" >"$work/make.out" 2>&1
    rc=$?
    [ $rc -eq 0 ] && ok "make: nothing touched, nothing to rebuild" ||
        fail "make -q with nothing touched: exit $rc: $(head -3 "$work/make.out")"
    bad=0
    for f in "${inputs[@]}"; do
        touch "$f"
        make -q -C "$mk" "$target" >/dev/null 2>&1
        rc=$?
        if [ $rc -ne 1 ]; then
            fail "make: touched '$f', make -q exit $rc (want 1)"
            bad=1
        fi
        make -s -C "$mk" "$target" >/dev/null 2>&1
        make -q -C "$mk" "$target" >/dev/null 2>&1 || { fail "make: not up to date after rebuilding for '$f'"; bad=1; }
    done
    [ $bad -eq 0 ] && ok "make: touching each of ${#inputs[@]} inputs wants a rebuild, and after it none"
else
    fail "make is not installed"
fi

# Ninja 1.11: a command that puts the depfile where the rule says and
# touches the target; `deps = gcc` makes Ninja parse it and keep what it read.
ninja_path() { printf '%s' "$1" | sed -e 's/\$/$$/g' -e 's/ /$ /g' -e 's/:/$:/g'; }
if have ninja; then
    nj="$work/ninja"
    mkdir -p "$nj"
    cmd=$(printf "cp '%s' '%s/t.d' && touch '%s'" "$dep" "$nj" "$target" | sed -e 's/\$/$$/g')
    printf 'rule gen\n  command = %s\n  depfile = %s/t.d\n  deps = gcc\nbuild %s: gen\n' \
        "$cmd" "$nj" "$(ninja_path "$target")" >"$nj/build.ninja"
    ninja -C "$nj" >"$work/ninja.out" 2>&1 && ok "ninja builds with the depfile" ||
        fail "ninja: $(tail -3 "$work/ninja.out")"
    ninja -C "$nj" -t deps >"$work/ninja.deps" 2>&1
    tail -n +2 "$work/ninja.deps" | sed -e 's/^    //' -e '/^$/d' | LC_ALL=C sort >"$work/ninja.list"
    sed -e '1d' -e 's/^  //' -e 's/ \\$//' "$dep" | python3 -c '
import sys
# un-escape the depfile the way both tools read it, for the comparison
for line in sys.stdin.read().splitlines():
    out, i, bs = "", 0, 0
    while i < len(line):
        c = line[i]
        if c == "\\" and i + 1 < len(line) and line[i + 1] in "#:":
            out += line[i + 1]; i += 2; continue
        if c == "\\":
            j = i
            while j < len(line) and line[j] == "\\": j += 1
            if j < len(line) and line[j] == " ":
                out += "\\" * ((j - i) // 2) + " "; i = j + 1; continue
            out += line[i:j]; i = j; continue
        if c == "$" and line[i + 1:i + 2] == "$":
            out += "$"; i += 2; continue
        out += c; i += 1
    print(out)' | LC_ALL=C sort >"$work/dep.list"
    if cmp -s "$work/ninja.list" "$work/dep.list"; then
        ok "ninja -t deps reads the $(wc -l <"$work/dep.list") inputs back exactly"
    else
        fail "ninja -t deps differs from the depfile's inputs:"
        diff "$work/dep.list" "$work/ninja.list" | head -10
    fi
    missing=0
    for f in "${inputs[@]}"; do grep -qxF "$f" "$work/ninja.list" || { missing=1; fail "ninja lacks '$f'"; }; done
    [ $missing -eq 0 ] && ok "ninja lists each of the ${#inputs[@]} awkward inputs by its name"
    ninja -C "$nj" -n >"$work/ninja.out" 2>&1
    grep -q "no work to do" "$work/ninja.out" && ok "ninja: nothing touched, no work" ||
        fail "ninja -n with nothing touched: $(tail -2 "$work/ninja.out")"
    bad=0
    for f in "${inputs[@]}"; do
        touch "$f"
        ninja -C "$nj" -n >"$work/ninja.out" 2>&1
        if grep -q "no work to do" "$work/ninja.out"; then
            fail "ninja: touched '$f', no rebuild"
            bad=1
        fi
        ninja -C "$nj" >/dev/null 2>&1
        ninja -C "$nj" -n 2>&1 | grep -q "no work to do" || { fail "ninja: still dirty after rebuilding for '$f'"; bad=1; }
    done
    [ $bad -eq 0 ] && ok "ninja: touching each of ${#inputs[@]} inputs wants a rebuild, and after it none"
else
    fail "ninja is not installed"
fi

# Names neither escaping can carry: one error each naming the path with
# control bytes escaped, exit 1, no depfile, an existing depfile untouched.
bad_names=('dq"uote' "sq'uote" 'st*ar' 'qu?est' $'ta\tb' $'new\nline' $'cr\rx' 'eq=ual' 'semi;colon' 'pi|pe'
           'amp&' 'lt<gt>' 'back`tick' 'car^et' $'ctl\001x' $'del\177x' 'br[ack]et' 'bs\#hash' 'bs\$dollar'
           'bs\:colon' 'trail\' 'trail:' 'lib(member)')
mkdir -p "$work/docs-bad"
for n in "${bad_names[@]}"; do mkdir -p "$work/docs-bad/$n"; done
printf '%s\n' "$page" >"$work/docs-bad/q\"uote.md"
printf '%s\n' "$page" >"$work/docs-bad/new"$'\n'"line.md"
echo "previous depfile" >"$work/old.d"
"$ddigen" generate --wdk "$wdk" --docs "$docs" --docs "$work/docs-bad" -q -o "$work/out-bad" --outputs asserts \
    --depfile "$work/old.d" 2>"$work/bad.err"
rc=$?
[ $rc -eq 1 ] && ok "inexpressible inputs: exit 1" || fail "inexpressible inputs: exit $rc (want 1)"
[ "$(cat "$work/old.d")" = "previous depfile" ] && ok "inexpressible inputs: the previous depfile is untouched" ||
    fail "inexpressible inputs: the depfile was written"
nerr=$(grep -c -- "--depfile: cannot write the input" "$work/bad.err")
want=$((${#bad_names[@]} + 2))
[ "$nerr" -eq "$want" ] && ok "one error for each of the $want inexpressible inputs" ||
    fail "$nerr depfile errors for $want inexpressible inputs: $(head -5 "$work/bad.err")"
grep -qF 'docs-bad/new\nline' "$work/bad.err" && grep -qF 'docs-bad/ta\tb' "$work/bad.err" &&
    grep -qF 'docs-bad/ctl\x01x' "$work/bad.err" && ok "the error shows a newline, a tab, a control byte escaped" ||
    fail "control bytes in the error: $(grep -a 'line\|ta' "$work/bad.err" | head -3)"
if LC_ALL=C grep -q $'[\001-\011\013-\037\177]' "$work/bad.err"; then
    fail "raw control bytes on stderr"
else
    ok "no raw control byte on stderr"
fi
[ "$(wc -l <"$work/bad.err")" -eq "$nerr" ] && ok "each error is one line (no raw newline from a name)" ||
    fail "stderr has $(wc -l <"$work/bad.err") lines for $nerr errors"

# A target that cannot be written fails before any work: exit 1, OUT not made.
for name in 'pct%dir' 'eq=dir' $'nl\ndir' $'tab\tdir' 'star*dir'; do
    rm -f "$work/t.d"
    "$ddigen" generate --wdk "$wdk" -q -o "$work/$name" --outputs asserts --depfile "$work/t.d" 2>"$work/t.err"
    rc=$?
    shown=$(printf '%q' "$name")
    [ $rc -eq 1 ] && [ ! -e "$work/$name" ] && [ ! -e "$work/t.d" ] &&
        grep -q -- "--depfile: cannot write the target" "$work/t.err" &&
        ok "target in $shown: exit 1 before any work" ||
        fail "target in $shown: exit $rc, OUT $( [ -e "$work/$name" ] && echo made || echo absent): $(head -2 "$work/t.err")"
done

echo "$passed passed, $failures failed"
[ $failures -eq 0 ]
