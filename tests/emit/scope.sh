#!/usr/bin/env bash
# Scope from the driver's callbacks (issue 27) on the fixture kit: with a
# --ddi-list, every family but the asserts covers the records the listed
# callbacks' parameters reach (pointers, embedded records, union members)
# plus --records; without a list the output is --all's, byte for byte; a
# --records name (or a `records:` line of the list) the spec lacks is
# refused (exit 1, nothing written).
#   scope.sh DDIGEN WDK DOCS WORK
set -u
ddigen=$1 wdk=$2 docs=$3 work=$4
rm -rf "$work" && mkdir -p "$work"
failures=0 passed=0
fail() { echo "FAIL $*"; failures=$((failures + 1)); }
ok() { echo "ok   $*"; passed=$((passed + 1)); }

"$ddigen" generate --wdk "$wdk" --docs "$docs" -q -o "$work/gen" 2>"$work/gen.txt" ||
    { cat "$work/gen.txt"; echo "FAIL generate"; exit 1; }
spec=$work/gen/spec/ddi.xml
emit() { "$ddigen" emit -q --spec "$spec" "$@"; }
same_dirs() { diff -r "$1" "$2" >/dev/null; }
# The same files but for their first line, the options' comment (a list
# and --records name the same records, with other options).
same_bodies() {
    local f
    [ "$(ls "$1")" = "$(ls "$2")" ] || return 1
    for f in "$1"/*; do
        cmp -s <(tail -n +2 "$f") <(tail -n +2 "$2/${f##*/}") || return 1
    done
}
# The records a marshaller set defines, one a line.
marshalled() { grep -o 'ddi_marshal_put_[A-Za-z0-9_]*(' "$1/ddi_marshal.h" | sed 's/ddi_marshal_put_//; s/($//' | sort -u; }
has() { marshalled "$1" | grep -qx "$2"; }

# No list is --all, byte for byte, and nothing in the whole-kit run is scoped.
emit --stats -o "$work/none" >"$work/none.stats" || fail "emit without a list"
emit --all -o "$work/all" || fail "emit --all"
same_dirs "$work/none" "$work/all" && ok "no list and --all write the same files" ||
    fail "no list and --all differ"
same_dirs "$work/none" "$work/gen/include" && ok "generate without a list writes what emit does" ||
    fail "generate and emit differ without a list"

# The paging callback: its argument record, the records its discriminated
# union's members embed, and those reached only through a pointer inside a
# member (DXGK_PTE behind UpdatePageTable.pPageTableEntries,
# DXGK_FENCE_RESIDENCY_INFO behind NotifyFenceResidency.pFences).
printf '# the paging callback only\nDxgkDdiBuildPagingBuffer\n' >"$work/paging.list"
emit --ddi-list "$work/paging.list" --stats -o "$work/paging" >"$work/paging.stats" || fail "emit --ddi-list paging"
if has "$work/paging" DXGKARG_BUILDPAGINGBUFFER && has "$work/paging" DXGK_TRANSFERFLAGS &&
    has "$work/paging" DXGK_PTE && has "$work/paging" DXGK_FENCE_RESIDENCY_INFO &&
    ! has "$work/paging" DXGKARG_PRESENT_DISPLAYONLY && ! has "$work/paging" DXGKARG_CREATEALLOCATION; then
    ok "paging list: the argument record, its union members' records, the records behind their pointers; no other callback's"
else
    fail "paging list: wrong records"; marshalled "$work/paging" | tr '\n' ' '; echo
fi
grep -q 'ddi_DXGKARG_BUILDPAGINGBUFFER_Operation_call' "$work/paging/ddi_dispatch.h" &&
    ! grep -q 'ddi_DXGKARGCB_NOTIFY_INTERRUPT_DATA_InterruptType' "$work/paging/ddi_dispatch.h" &&
    ok "paging list: the Operation dispatch table, not the interrupt callback's" || fail "paging list: dispatch tables"
cmp -s <(tail -n +2 "$work/paging/ddi_layout_asserts.h") "$work/all/ddi_layout_asserts.h" &&
    head -1 "$work/paging/ddi_layout_asserts.h" | grep -q '^/\* ddigen options: ddi-list=<1 callbacks' &&
    ok "the asserts keep their own scope (the first line names the list)" || fail "the asserts changed with the list"
if grep -Eq '^records in scope: [0-9]+ of [0-9]+$' "$work/paging.stats" &&
    ! grep -q 'records in scope' "$work/none.stats"; then
    ok "--stats: $(grep 'records in scope' "$work/paging.stats"); nothing said without a list"
else
    fail "--stats does not say how many records are in scope"; cat "$work/paging.stats"
fi

# Every record a generated marshaller or validator descends into is generated.
closed=1
for d in paging; do
    for r in $(grep -o 'ddi_marshal_\(put\|get\)_[A-Za-z0-9_]*(' "$work/$d/ddi_marshal.c" |
        sed 's/ddi_marshal_\(put\|get\)_//; s/($//' | sort -u); do
        marshalled "$work/$d" | grep -qx "$r" || { closed=0; echo "  $d: ddi_marshal.c calls the marshaller of $r"; }
    done
    for v in $(sed -n 's/^#if defined(DDI_HAS_\([A-Za-z0-9_]*\))$/\1/p' "$work/$d/ddi_validate.c" | sort -u); do
        grep -q "DDI_HAS_$v\b" "$work/$d/ddi_validate.h" || { closed=0; echo "  $d: a descent into $v"; }
    done
done
[ $closed = 1 ] && ok "descents name only generated records" || fail "a descent leaves the scope"

# A display-only list; --records adds what the driver names.
printf 'DxgkDdiPresentDisplayOnly\n' >"$work/display.list"
emit --driver-kind display-only --ddi-list "$work/display.list" -o "$work/display" || fail "emit display-only"
emit --driver-kind display-only --ddi-list "$work/display.list" --records DXGKARG_BUILDPAGINGBUFFER,_DXGK_PTE \
    -o "$work/named" || fail "emit --records"
if has "$work/display" DXGKARG_PRESENT_DISPLAYONLY && ! has "$work/display" DXGKARG_BUILDPAGINGBUFFER &&
    ! grep -q BUILDPAGINGBUFFER "$work/display/ddi_dispatch.h" &&
    has "$work/named" DXGKARG_BUILDPAGINGBUFFER && has "$work/named" DXGK_PTE &&
    grep -q 'ddi_DXGKARG_BUILDPAGINGBUFFER_Operation_call' "$work/named/ddi_dispatch.h"; then
    ok "display-only list: no paging record or table; --records (a name and a tag) brings them in"
else
    fail "display-only list or --records"
fi
# The same records named in the list file: one file for the driver.
grep -q "none: no record with a discriminator is in the driver's scope" "$work/display/ddi_dispatch.h" &&
    ok "display-only list: ddi_dispatch.h says no discriminated record is in scope, not that the spec has none" ||
    fail "display-only list: ddi_dispatch.h's account of its tables"
printf 'DxgkDdiPresentDisplayOnly\nrecords: DXGKARG_BUILDPAGINGBUFFER, _DXGK_PTE  # also these\n' >"$work/display-rec.list"
emit --driver-kind display-only --ddi-list "$work/display-rec.list" -o "$work/named-list" &&
    same_bodies "$work/named" "$work/named-list" && ok "a 'records:' line in the list is --records" ||
    fail "a 'records:' line in the list"
emit --driver-kind display-only --ddi-list "$work/display.list" -o "$work/display2" &&
    same_dirs "$work/display" "$work/display2" && ok "scoped output is deterministic" || fail "two scoped runs differ"

# generate takes the same options and writes the same files.
"$ddigen" generate --wdk "$wdk" --docs "$docs" --ddi-list "$work/paging.list" -q -o "$work/gen-paging" 2>"$work/err.txt" &&
    same_dirs "$work/gen-paging/include" "$work/paging" && ok "generate --ddi-list writes what emit --ddi-list does" ||
    { fail "generate --ddi-list"; head -5 "$work/err.txt"; }

# Refusals: an unknown record (exit 1, nothing written), --records with --all,
# a malformed --records (usage).
emit --ddi-list "$work/paging.list" --records DXGK_PTE,DXGKARG_NO_SUCH_THING -o "$work/bad" 2>"$work/err.txt"
rc=$?
if [ $rc = 1 ] && [ ! -e "$work/bad" ] &&
    grep -q "ddi.xml: error: --records: 'DXGKARG_NO_SUCH_THING' is not a record of the spec" "$work/err.txt"; then
    ok "an unknown --records name: exit 1, named, nothing written"
else
    fail "unknown --records name: exit $rc"; cat "$work/err.txt"
fi
printf 'DxgkDdiBuildPagingBuffer\n\nrecords: DXGK_PTE NOPE_RECORD\n' >"$work/bad.list"
emit --ddi-list "$work/bad.list" -o "$work/bad" 2>"$work/err.txt"
rc=$?
[ $rc = 1 ] && [ ! -e "$work/bad" ] && grep -q "bad.list:3: error: records: 'NOPE_RECORD' is not a record" "$work/err.txt" &&
    ok "an unknown record of the list: exit 1, its file and line, nothing written" ||
    { fail "unknown record in the list: exit $rc"; cat "$work/err.txt"; }
"$ddigen" generate --wdk "$wdk" --records NOPE -q -o "$work/bad-gen" 2>"$work/err.txt"
rc=$?
[ $rc = 1 ] && [ ! -e "$work/bad-gen" ] && grep -q "'NOPE' is not a record" "$work/err.txt" &&
    ok "generate --records NOPE: exit 1, nothing written" || { fail "generate --records NOPE: exit $rc"; cat "$work/err.txt"; }
emit --all --records DXGK_PTE -o "$work/bad" 2>"$work/err.txt"
rc=$?
[ $rc = 2 ] && [ ! -e "$work/bad" ] && grep -q -- "--records with --all" "$work/err.txt" &&
    ok "--records with --all is a usage error" || { fail "--records with --all: exit $rc"; cat "$work/err.txt"; }
emit --records 'DXGK_PTE,,X Y' -o "$work/bad" 2>"$work/err.txt"
rc=$?
[ $rc = 2 ] && [ ! -e "$work/bad" ] && grep -q "expected record names" "$work/err.txt" &&
    ok "a malformed --records is a usage error" || { fail "malformed --records: exit $rc"; cat "$work/err.txt"; }

echo "$passed passed, $failures failed"
[ $failures -eq 0 ]
