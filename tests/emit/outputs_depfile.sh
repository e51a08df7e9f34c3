#!/usr/bin/env bash
# `generate --outputs` selects template families (an unknown or absent one
# fails before anything is written) and `--depfile` lists every header,
# page and template the run read, in the Makefile form Ninja and Make read.
#   outputs_depfile.sh DDIGEN WDK_DIR DOCS_DIR TEMPLATES_DIR WORK
set -u
ddigen=$1 wdk=$2 docs=$3 templates=$4 work=$5
rm -rf "$work" && mkdir -p "$work"
failures=0 passed=0
ok() { echo "ok   $*"; passed=$((passed + 1)); }
fail() { echo "FAIL $*"; failures=$((failures + 1)); }

"$ddigen" --version | grep -qx 'ddigen 0\.2\.0' && ok "--version" || fail "--version: $("$ddigen" --version)"

# A folder with a space, so the depfile's escaping is exercised.
out="$work/out dir"
"$ddigen" generate --wdk "$wdk" --docs "$docs" -q -o "$out" --outputs asserts --depfile "$work/gen.d" ||
    fail "generate --outputs asserts --depfile failed"
[ -s "$out/include/ddi_layout_asserts.h" ] && ok "asserts family written" || fail "asserts missing"
dep="$work/gen.d"
head -1 "$dep" | grep -qF "$work/out\\ dir/spec/ddi.xml: \\" && ok "depfile target is OUT/spec/ddi.xml, space escaped" ||
    fail "depfile target: $(head -1 "$dep")"
# Every header the fixture's translation unit includes, from km/ and shared/.
for h in km/ntddk.h km/dispmprt.h km/d3dkmddi.h shared/d3dukmdt.h shared/d3dkmdt.h shared/sal.h; do
    grep -qF "  $(realpath "$wdk/$h")" "$dep" && ok "depfile lists $h" || fail "depfile lacks $h"
done
npages=$(find "$docs" -maxdepth 1 -type f | wc -l)
nlisted=$(grep -cF "  $(realpath "$docs")/" "$dep")
[ "$nlisted" -eq "$npages" ] && ok "depfile lists the $npages pages read" || fail "depfile lists $nlisted of $npages pages"
grep -qF "  $(realpath "$templates")/ddi_layout_asserts.h.xsl" "$dep" && ok "depfile lists the template" ||
    fail "depfile lacks the template"
# A header the kit has but the translation unit never opens is not a dependency.
[ -e "$wdk/um/d3dkmthk.h" ] && ! grep -q "d3dkmthk.h" "$dep" && ok "depfile lists only what was read (no um/d3dkmthk.h)" ||
    fail "a header never opened is listed"
# Make itself reads it: a rule on the target with the depfile included.
printf 'include %s\n' "$(printf '%s' "$dep" | sed 's/ /\\ /g')" >"$work/Makefile"
make -s -C "$work" -f "$work/Makefile" -n "$work/out dir/spec/ddi.xml" >/dev/null 2>&1 &&
    ok "make parses the depfile" || fail "make cannot parse the depfile"
"$ddigen" generate --wdk "$wdk" --docs "$docs" -q -o "$work/again" --outputs asserts --depfile "$work/again.d" &&
    sed 's|/again/|/out\\ dir/|' "$work/again.d" | cmp -s - "$dep" && ok "depfile is the same run to run" ||
    fail "depfiles differ between runs"

# Unknown or absent families: a usage error (exit 2), nothing written, the family named.
for fam in bogus validate,bogus; do
    "$ddigen" generate --wdk "$wdk" -q -o "$work/bad-$fam" --outputs "$fam" --depfile "$work/bad.d" 2>"$work/err.txt"
    rc=$?
    [ $rc -eq 2 ] && [ ! -e "$work/bad-$fam" ] && [ ! -e "$work/bad.d" ] && grep -q "unknown output family 'bogus'" "$work/err.txt" &&
        ok "--outputs $fam: exit 2, nothing written" || fail "--outputs $fam: exit $rc"
done
for fam in asserts validate marshal dispatch skeleton; do
    first=$("$ddigen" emit --list-outputs --outputs $fam 2>/dev/null | head -1)
    if [ -n "$first" ]; then
        [ -e "$templates/$first.xsl" ] && ok "--list-outputs $fam: $first" || fail "--list-outputs $fam gave $first"
        continue
    fi
    "$ddigen" generate --wdk "$wdk" -q -o "$work/absent-$fam" --outputs "$fam" 2>"$work/err.txt"
    rc=$?
    [ $rc -eq 1 ] && [ ! -e "$work/absent-$fam" ] && grep -q "output family '$fam' has no templates" "$work/err.txt" &&
        ok "--outputs $fam (no templates yet): exit 1 naming it, nothing written" || fail "--outputs $fam absent: exit $rc"
done

# Templates found from the executable: a copy of the binary with no
# share/ddigen beside it fails naming where it looked; --templates still wins.
mkdir -p "$work/bin" && cp "$ddigen" "$work/bin/ddigen"
"$work/bin/ddigen" emit --list-outputs 2>"$work/err.txt"
[ $? -eq 1 ] && grep -q "share/ddigen/templates" "$work/err.txt" && ok "templates looked up beside the executable" ||
    fail "a moved binary did not look in ../share/ddigen/templates"
"$work/bin/ddigen" emit --list-outputs --templates "$templates" | grep -qx ddi_layout_asserts.h &&
    ok "--templates overrides the lookup" || fail "--templates ignored"
mkdir -p "$work/share/ddigen" && ln -s "$(realpath "$templates")" "$work/share/ddigen/templates"
"$work/bin/ddigen" emit --list-outputs | grep -qx ddi_layout_asserts.h && ok "PREFIX/bin finds PREFIX/share/ddigen/templates" ||
    fail "installed layout not found"
! strings "$ddigen" | grep -qF "$(realpath "$templates")" && ok "no templates path compiled into the binary" ||
    fail "the binary holds the source templates path"
echo "$passed passed, $failures failed"
[ $failures -eq 0 ]
