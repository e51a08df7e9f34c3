#!/usr/bin/env bash
# Scope from the driver's callbacks (issue 27) on a real WDK release with
# the DDI pages: a display-only driver's 28 callbacks (display_only.list).
# Every family but the asserts is generated for the records their
# parameters reach; the generated .c files compile as C and C++ for
# i686/x86_64/aarch64-pc-windows-msvc against the kit; a record a
# display-only driver never sees (DXGKARG_BUILDPAGINGBUFFER) is absent, one
# reached only through a pointer inside a parameter record
# (D3DKMT_MOVE_RECT, behind DXGKARG_PRESENT_DISPLAYONLY.pMoves) is present.
# Prints each family's size with and without the list.
#   scope_realkit.sh DDIGEN CLANG KIT_DIR DOCS_DIR SOURCE_DIR WORK
# Exit 77 (skipped) without the kit.
set -u
ddigen=$1 clang=$2 kit_arg=$3 docs=$4 src=$5 work=$6
if [ ! -d "$kit_arg" ]; then
    echo "SKIP: no real kit at $kit_arg (../shared is absent): nothing tested"
    exit 77
fi
kit=$(realpath "$kit_arg") # the overlay needs an absolute, symlink-free path
rm -rf "$work" && mkdir -p "$work"
failures=0 passed=0
fail() { echo "FAIL $*"; failures=$((failures + 1)); }
ok() { echo "ok   $*"; passed=$((passed + 1)); }
list=$src/tests/emit/display_only.list

docs_arg=()
if [ -d "$docs" ]; then docs_arg=(--docs "$docs"); else echo "note: no DDI pages at $docs, generating without"; fi
"$ddigen" generate --wdk "$kit" "${docs_arg[@]}" --driver-kind display-only --ddi-list "$list" -q -o "$work/gen" \
    2>"$work/gen.txt" || { cat "$work/gen.txt"; echo "FAIL generate --ddi-list"; exit 1; }
"$ddigen" overlay --wdk "$kit" -o "$work/overlay.json" || { echo "FAIL overlay"; exit 1; }
spec=$work/gen/spec/ddi.xml
scoped=$work/gen/include
"$ddigen" emit -q --spec "$spec" --driver-kind display-only --all --stats -o "$work/full" >"$work/full.stats" ||
    fail "emit --all"
"$ddigen" emit -q --spec "$spec" --driver-kind display-only --ddi-list "$list" --stats -o "$work/emitted" \
    >"$work/scoped.stats" || fail "emit --ddi-list"
diff -r "$scoped" "$work/emitted" >/dev/null && ok "generate and emit write the same scoped files" ||
    fail "generate --ddi-list and emit --ddi-list differ"

echo "$(grep -c '^[A-Za-z]' "$list") callbacks listed; $(grep 'records in scope' "$work/scoped.stats")"
printf '  %-22s %10s %10s\n' file "--all" "the list"
for f in ddi_marshal.c ddi_marshal.h ddi_validate.c ddi_validate.h ddi_rules.c ddi_dispatch.c ddi_dispatch.h \
    ddi_layout_asserts.h; do
    printf '  %-22s %10s %10s\n' "$f" "$(wc -c <"$work/full/$f")" "$(wc -c <"$scoped/$f")"
done

# The records a marshaller set declares, one a line.
marshalled() { grep -o 'ddi_marshal_put_[A-Za-z0-9_]*(' "$1/ddi_marshal.h" | sed 's/ddi_marshal_put_//; s/($//' | sort -u; }
has() { marshalled "$1" | grep -qx "$2"; }
if ! has "$scoped" DXGKARG_BUILDPAGINGBUFFER && ! grep -q 'DXGKARG_BUILDPAGINGBUFFER' "$scoped/ddi_validate.h" &&
    ! grep -q 'BUILDPAGINGBUFFER' "$scoped/ddi_dispatch.h" && has "$work/full" DXGKARG_BUILDPAGINGBUFFER &&
    grep -q 'ddi_DXGKARG_BUILDPAGINGBUFFER_Operation_call' "$work/full/ddi_dispatch.h"; then
    ok "DXGKARG_BUILDPAGINGBUFFER (no display-only callback takes it): no marshaller, validator or dispatch table"
else
    fail "DXGKARG_BUILDPAGINGBUFFER is generated for the display-only list"
fi
# D3DKMT_MOVE_RECT: no listed callback's parameter, only a pointer of one's record.
if has "$scoped" D3DKMT_MOVE_RECT && has "$scoped" DXGKARG_PRESENT_DISPLAYONLY &&
    ! grep -q 'D3DKMT_MOVE_RECT' <(sed -n '/<function-type name="DXGKDDI_PRESENTDISPLAYONLY"/,/<\/function-type>/p' "$spec"); then
    ok "D3DKMT_MOVE_RECT, reached only through DXGKARG_PRESENT_DISPLAYONLY.pMoves, is generated"
else
    fail "D3DKMT_MOVE_RECT is not generated (or is a parameter itself)"
fi
# Below their first line, the options' comment (which names the list).
cmp -s <(tail -n +2 "$scoped/ddi_layout_asserts.h") <(tail -n +2 "$work/full/ddi_layout_asserts.h") &&
    ok "the asserts keep their DDI-header scope" || fail "the asserts changed with the list"

closed=1
for r in $(grep -o 'ddi_marshal_\(put\|get\)_[A-Za-z0-9_]*(' "$scoped/ddi_marshal.c" |
    sed 's/ddi_marshal_\(put\|get\)_//; s/($//' | sort -u); do
    marshalled "$scoped" | grep -qx "$r" || { closed=0; echo "  ddi_marshal.c calls the marshaller of $r"; }
done
for v in $(sed -n 's/^#if defined(DDI_HAS_\([A-Za-z0-9_]*\))$/\1/p' "$scoped/ddi_validate.c" | sort -u); do
    grep -q "DDI_HAS_$v\b" "$scoped/ddi_validate.h" || { closed=0; echo "  a descent into $v"; }
done
[ $closed = 1 ] && ok "every marshaller and validator a generated one calls is generated" ||
    fail "a descent leaves the scope"

# The kit's folders are system folders (their warnings are not ours).
kcompile() { # triple define lang file
    local std=-std=c11
    [ "$3" = c++ ] && std=-std=c++17
    "$clang" -fsyntax-only -x "$3" "$std" -target "$1-pc-windows-msvc" -fms-extensions -fms-compatibility \
        -fms-compatibility-version=19.38 -ffreestanding -nostdlibinc -D"$2" -D_KERNEL_MODE -Wall -Wextra -Werror \
        -ivfsoverlay "$work/overlay.json" -isystem "$kit/km" -isystem "$kit/km/crt" -isystem "$kit/shared" \
        -isystem "$kit/um" -I"$src/runtime/include" -I"$scoped" "$4"
}
for f in ddi_marshal.c ddi_validate.c ddi_rules.c ddi_dispatch.c; do
    bad=0
    for a in i686:_X86_ x86_64:_AMD64_ aarch64:_ARM64_; do
        for lang in c c++; do
            kcompile "${a%%:*}" "${a##*:}" "$lang" "$scoped/$f" >"$work/log.txt" 2>&1 ||
                { bad=1; echo "  $f ($lang) ${a%%:*}:"; head -8 "$work/log.txt"; }
        done
    done
    [ $bad = 0 ] && ok "$f compiles as C and C++ for i686, x86_64 and aarch64" || fail "$f does not compile"
done

echo "$passed passed, $failures failed"
[ $failures -eq 0 ]
