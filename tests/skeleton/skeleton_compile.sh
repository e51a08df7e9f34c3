#!/usr/bin/env bash
# The generated skeleton and dispatch files as Windows kernel C, against one
# fixture release: clang for i686/x86_64/aarch64-pc-windows-msvc,
# -ffreestanding -Wall -Wextra -Werror, the .c files as C and the headers in C
# and C++ translation units, generated for the oldest and the newest DDI
# version of the structure, each compiled at that version and at none given
# (the kit's default). Then what the files say:
#   - a full skeleton at the oldest version lacks members a newer one fills;
#   - PASSIVE_LEVEL callbacks are pageable with PAGED_CODE(), others are not;
#   - the display-only skeleton of a sample driver's callbacks fills exactly them;
#   - one source for the oldest version and up fills the newer members
#     under their #if; Version is DXGKDDI_INTERFACE_VERSION;
#   - a planted member gated on the newest version is filled only there
#     (and under its #if in a range that reaches it);
#   - a name the structure does not have is refused, nothing written.
#   skeleton_compile.sh DDIGEN CLANG WDK_DIR SOURCE_DIR WORK
set -u
ddigen=$1 clang=$2 wdk=$3 src=$4 work=$5
rm -rf "$work" && mkdir -p "$work"
failures=0 passed=0
fail() { echo "FAIL $*"; failures=$((failures + 1)); }
ok() { echo "ok   $*"; passed=$((passed + 1)); }

"$ddigen" generate -q --wdk "$wdk" --overrides "$src/spec/overrides.xml" -o "$work/gen" ||
    { echo "FAIL generate"; exit 1; }
spec=$work/gen/spec/ddi.xml
overlay=$work/overlay.json
"$ddigen" overlay --wdk "$wdk" -o "$overlay"
versions=$(grep -o '<version name="[A-Za-z0-9_]*" short="[A-Za-z0-9_]*"' "$spec" | sed 's/.*short="\(.*\)"/\1/')
oldest=$(echo "$versions" | head -1) newest=$(echo "$versions" | tail -1)
macro() { echo "DXGKDDI_INTERFACE_VERSION_$1"; }
# The first version at which a record exists (its versions="A-B" or every one).
first_version() {
    local v
    v=$(grep -o "<record name=\"$1\" [^>]*" "$spec" | grep -o 'versions="[A-Za-z0-9_]*' | sed 's/versions="//')
    echo "${v:-$oldest}"
}

cat >"$work/headers.c" <<'TU'
#include <ntddk.h>
#include <dispmprt.h>
#include "ddi_dispatch.h"
#include "ddi_skeleton.h"
#include "ddi_skeleton_driver.h"
TU
cp "$work/headers.c" "$work/headers.cpp"

compile() { # dir triple define version-or-default file [extra...]
    local dir=$1 triple=$2 define=$3 version=$4 file=$5
    shift 5
    local vdef=-DDXGKDDI_INTERFACE_VERSION="$(macro "$version")"
    [ "$version" = default ] && vdef=-DDDIGEN_KIT_DEFAULT_VERSION
    "$clang" ${MODE:--fsyntax-only} -target "$triple-pc-windows-msvc" -fms-extensions -fms-compatibility \
        -fms-compatibility-version=19.38 -nostdlibinc -ffreestanding -D"$define" -D_KERNEL_MODE "$vdef" \
        '-Dstatic_assert(...)=' -Wall -Wextra -Werror -Wno-nonportable-include-path \
        -ivfsoverlay "$overlay" -I"$wdk/km" -I"$wdk/shared" -I"$wdk/um" \
        -I"$src/runtime/include" -I"$dir" "$@" "$file"
}

# One generated set: every file, three targets, at its version and the default.
# A closed range (V..V) stops a build at the kit's newer default: "only"
# compiles at its version alone.
check_set() { # name dir version [only]
    local name=$1 dir=$2 version=$3 bad=0 n=0 a v f versions="$3 default"
    [ "${4:-}" = only ] && versions=$3
    for a in i686:_X86_ x86_64:_AMD64_ aarch64:_ARM64_; do
        local triple=${a%%:*} define=${a##*:}
        for v in $versions; do
            for f in ddi_skeleton.c ddi_dispatch.c; do
                n=$((n + 1))
                compile "$dir" "$triple" "$define" "$v" "$dir/$f" >"$work/log.txt" 2>&1 ||
                    { bad=1; echo "  $name $f $triple $v:"; head -8 "$work/log.txt"; }
            done
            n=$((n + 2))
            compile "$dir" "$triple" "$define" "$v" "$work/headers.c" >"$work/log.txt" 2>&1 ||
                { bad=1; echo "  $name headers (C) $triple $v:"; head -8 "$work/log.txt"; }
            compile "$dir" "$triple" "$define" "$v" "$work/headers.cpp" >"$work/log.txt" 2>&1 ||
                { bad=1; echo "  $name headers (C++) $triple $v:"; head -8 "$work/log.txt"; }
        done
    done
    [ $bad = 0 ] && ok "$name: $n kernel-C compiles (3 targets x $versions)" ||
        fail "$name does not compile"
}

filled() { # ddi_skeleton.c -> the members the fill sets, sorted
    sed -n '/^NTSTATUS ddi_fill_initialization_data/,/^}/p' "$1" | grep -o 'init->[A-Za-z0-9_]*' |
        sed 's/init->//' | grep -v '^Version$' | sort
}

gen() { # dir args...
    local dir=$1
    shift
    "$ddigen" emit -q --spec "$spec" -o "$dir" "$@"
}

# Full miniport, every callback: the oldest version alone, the oldest and
# up (one source), the newest and up.
gen "$work/full-old" --ddi-version "$oldest..$oldest" || fail "emit full $oldest..$oldest"
gen "$work/full-range" --ddi-version "$oldest" || fail "emit full $oldest.."
gen "$work/full-new" --ddi-version "$newest" || fail "emit full $newest"
check_set "full skeleton at $oldest" "$work/full-old" "$oldest" only
compile "$work/full-old" x86_64 _AMD64_ default "$work/headers.c" >"$work/log.txt" 2>&1
grep -m1 'error:' "$work/log.txt" |
    grep -q "generated for $(macro "$oldest"): DXGKDDI_INTERFACE_VERSION is above that" &&
    ok "the skeleton for $oldest..$oldest stops a build at the kit default by name" ||
    { fail "no error above a closed range"; head -3 "$work/log.txt"; }
check_set "full skeleton for $oldest and later" "$work/full-range" "$oldest"
check_set "full skeleton at $newest" "$work/full-new" "$newest"
old_n=$(filled "$work/full-old/ddi_skeleton.c" | wc -l) new_n=$(filled "$work/full-new/ddi_skeleton.c" | wc -l)
if [ "$old_n" -gt 0 ] && [ "$new_n" -gt "$old_n" ] && ! filled "$work/full-old/ddi_skeleton.c" | grep -qx DxgkDdiSystemDisplayEnable &&
    filled "$work/full-new/ddi_skeleton.c" | grep -qx DxgkDdiSystemDisplayEnable; then
    ok "regenerating for $newest adds members ($old_n at $oldest, $new_n at $newest; DxgkDdiSystemDisplayEnable from WIN8)"
else
    fail "member counts $old_n at $oldest, $new_n at $newest"
fi
# One source for $oldest and later: every member, the newer ones under their #if.
range_fill=$(sed -n '/^NTSTATUS ddi_fill_initialization_data/,/^}/p' "$work/full-range/ddi_skeleton.c")
if [ "$(filled "$work/full-range/ddi_skeleton.c" | wc -l)" = "$new_n" ] &&
    echo "$range_fill" | grep -B1 'init->DxgkDdiSystemDisplayEnable = ' |
        grep -qx '#if (DXGKDDI_INTERFACE_VERSION >= DXGKDDI_INTERFACE_VERSION_WIN8)' &&
    [ "$(echo "$range_fill" | grep -c '^#if (DXGKDDI_INTERFACE_VERSION >= ')" = "$(echo "$range_fill" | grep -c '^#endif')" ] &&
    [ "$(echo "$range_fill" | grep -c '^#if')" -gt 0 ] && ! echo "$range_fill" | grep -B1 'init->DxgkDdiAddDevice' | grep -q '^#if'; then
    ok "$oldest and later: all $new_n members from one source, the newer ones under #if (DxgkDdiSystemDisplayEnable >= WIN8)"
else
    fail "the range's per-member #if"; echo "$range_fill" | head -20
fi
grep -q "Version = DXGKDDI_INTERFACE_VERSION;" "$work/full-old/ddi_skeleton.c" &&
    grep -q "Version = DXGKDDI_INTERFACE_VERSION;" "$work/full-range/ddi_skeleton.c" &&
    ok "Version set to the compiled DXGKDDI_INTERFACE_VERSION" || fail "Version is not DXGKDDI_INTERFACE_VERSION"

# IRQL: BuildPagingBuffer is PASSIVE_LEVEL (pageable), the DPC routine is not.
body() { sed -n "/ Ddi$2(/,/^}/p" "$1"; }
paged() { grep -B3 " Ddi$2(" "$1" | head -1 | grep -qx '#pragma code_seg(push, "PAGE")'; }
if paged "$work/full-new/ddi_skeleton.c" BuildPagingBuffer &&
    body "$work/full-new/ddi_skeleton.c" BuildPagingBuffer | grep -q 'PAGED_CODE();' &&
    ! paged "$work/full-new/ddi_skeleton.c" DpcRoutine &&
    ! body "$work/full-new/ddi_skeleton.c" DpcRoutine | grep -q PAGED_CODE; then
    ok "PASSIVE_LEVEL thunks are pageable with PAGED_CODE(); DdiDpcRoutine stays resident"
else
    fail "pageable section or PAGED_CODE() not by IRQL"
fi
grep -q '^DXGKDDI_BUILDPAGINGBUFFER DdiBuildPagingBuffer;' "$work/full-new/ddi_skeleton.h" &&
    grep -q '^DXGKDDI_BUILDPAGINGBUFFER drv_BuildPagingBuffer;' "$work/full-new/ddi_skeleton_driver.h" &&
    [ "$(grep -c '^_Use_decl_annotations_$' "$work/full-new/ddi_skeleton.c")" = "$new_n" ] &&
    ok "thunks and driver prototypes declared through role typedefs; every definition _Use_decl_annotations_" ||
    fail "thunk declarations"

# IRQL from the docs wins over the header's annotation: the test page says
# DISPATCH_LEVEL for DXGKDDI_PATCH, whose fixture typedef says PASSIVE_LEVEL.
if paged "$work/full-new/ddi_skeleton.c" Patch &&
    "$ddigen" generate -q --wdk "$wdk" --docs "$src/tests/skeleton/docs" -o "$work/with-docs" &&
    grep -q 'name="DXGKDDI_PATCH"[^>]*irql="DISPATCH_LEVEL"' "$work/with-docs/spec/ddi.xml" &&
    ! paged "$work/with-docs/include/ddi_skeleton.c" Patch &&
    ! body "$work/with-docs/include/ddi_skeleton.c" Patch | grep -q PAGED_CODE; then
    ok "req.irql of the reference page decides: DdiPatch pageable from the header alone, resident with the page's DISPATCH_LEVEL"
else
    fail "the page's req.irql did not decide DdiPatch's section"
fi

# Display-only: the callbacks of a display-only sample driver, exactly.
dod=$(first_version KMDDOD_INITIALIZATION_DATA)
cat >"$work/dod.list" <<'LIST'
# add-device .. present-display-only, then the system display callbacks
DxgkDdiAddDevice
DxgkDdiStartDevice
DxgkDdiStopDevice
DxgkDdiRemoveDevice
DxgkDdiDispatchIoRequest
DxgkDdiInterruptRoutine
DxgkDdiDpcRoutine
DxgkDdiQueryChildRelations
DxgkDdiQueryChildStatus
DxgkDdiQueryDeviceDescriptor
DxgkDdiSetPowerState
DxgkDdiResetDevice
DxgkDdiUnload
DxgkDdiQueryInterface
DxgkDdiQueryAdapterInfo
DxgkDdiSetPointerPosition
DxgkDdiSetPointerShape
DxgkDdiIsSupportedVidPn
DxgkDdiRecommendFunctionalVidPn
DxgkDdiEnumVidPnCofuncModality
DxgkDdiSetVidPnSourceVisibility
DxgkDdiCommitVidPn
DxgkDdiUpdateActiveVidPnPresentPath
DxgkDdiRecommendMonitorModes
DxgkDdiQueryVidPnHWCapability
DxgkDdiPresentDisplayOnly
DxgkDdiStopDeviceAndReleasePostDisplayOwnership
DxgkDdiSystemDisplayEnable
DxgkDdiSystemDisplayWrite
LIST
for v in "$dod" "$newest"; do
    gen "$work/dod-$v" --driver-kind display-only --ddi-list "$work/dod.list" --ddi-version "$v" ||
        fail "emit display-only $v"
    check_set "display-only skeleton at $v" "$work/dod-$v" "$v"
    if diff <(grep -v '^#' "$work/dod.list" | sort) <(filled "$work/dod-$v/ddi_skeleton.c") >"$work/dod.diff"; then
        ok "display-only at $v fills exactly the $(grep -vc '^#' "$work/dod.list") listed callbacks of KMDDOD_INITIALIZATION_DATA"
    else
        fail "display-only fill differs from the list:"; head "$work/dod.diff"
    fi
done
grep -q 'ddi_fill_initialization_data(KMDDOD_INITIALIZATION_DATA \*init)' "$work/dod-$newest/ddi_skeleton.h" &&
    ok "display-only fill takes KMDDOD_INITIALIZATION_DATA" || fail "display-only fill signature"

# A name that is not a callback: exit 1, nothing written.
printf 'DxgkDdiAddDevice\nDxgkDdiNoSuchCallback\n' >"$work/bad.list"
if gen "$work/bad-out" --ddi-list "$work/bad.list" 2>"$work/bad.txt"; then
    fail "an unknown callback name was accepted"
elif grep -q "DxgkDdiNoSuchCallback' is not a callback member of DRIVER_INITIALIZATION_DATA" "$work/bad.txt" &&
    [ ! -e "$work/bad-out" ]; then
    ok "an unknown callback name is an error naming it, nothing written"
else
    fail "unknown name: wrong error or files written"; cat "$work/bad.txt"
fi

# The same through generate: the list is checked against the kit's
# headers before the parse (the message names the kit's dispmprt.h, and
# the list's line), so a previous ddi.xml is kept.
mkdir -p "$work/bad-gen/spec" && echo previous >"$work/bad-gen/spec/ddi.xml"
if "$ddigen" generate --wdk "$wdk" --ddi-list "$work/bad.list" -q -o "$work/bad-gen" 2>"$work/bad-gen.txt"; then
    fail "generate accepted an unknown callback name"
elif grep -qF "bad.list:2: error: 'DxgkDdiNoSuchCallback' is not a callback member of DRIVER_INITIALIZATION_DATA (in $wdk/km/dispmprt.h)" "$work/bad-gen.txt" &&
    [ "$(cat "$work/bad-gen/spec/ddi.xml")" = previous ] && [ ! -e "$work/bad-gen/include" ]; then
    ok "generate: an unknown callback name is an error before the parse, the previous spec kept, no headers"
else
    fail "generate with an unknown name: wrong error or files written"; cat "$work/bad-gen.txt"
fi

# A display-only skeleton before KMDDOD_INITIALIZATION_DATA exists: an error, nothing written.
if [ "$dod" != "$oldest" ]; then
    if gen "$work/dod-too-old" --driver-kind display-only --ddi-version "$oldest" 2>"$work/old.txt"; then
        fail "a display-only skeleton at $oldest was generated"
    elif grep -q "KMDDOD_INITIALIZATION_DATA does not exist at $oldest" "$work/old.txt" && [ ! -e "$work/dod-too-old" ]; then
        ok "display-only at $oldest (before the structure exists) is an error, nothing written"
    else
        fail "display-only at $oldest: wrong error or files written"; cat "$work/old.txt"
    fi
fi

# Planted: DRIVER_INITIALIZATION_DATA gains a member at the newest version.
kit=$work/planted-kit
cp -r "$wdk" "$kit"
h=$kit/km/dispmprt.h
if ! grep -q '^} DRIVER_INITIALIZATION_DATA, \*PDRIVER_INITIALIZATION_DATA;' "$h"; then
    fail "fixture dispmprt.h changed shape: update this test"
else
    sed -i "s/^} DRIVER_INITIALIZATION_DATA, \*PDRIVER_INITIALIZATION_DATA;/#if (DXGKDDI_INTERFACE_VERSION >= $(macro "$newest"))\n    PDXGKDDI_BUILDPAGINGBUFFER              DxgkDdiPlantedPaging;\n#endif\n&/" "$h"
    "$ddigen" generate -q --wdk "$kit" -o "$work/planted" || fail "generate over the planted kit"
    "$ddigen" overlay --wdk "$kit" -o "$work/overlay-planted.json"
    pspec=$work/planted/spec/ddi.xml
    prev=$(echo "$versions" | tail -2 | head -1)
    "$ddigen" emit -q --spec "$pspec" -o "$work/planted-new" --ddi-version "$newest"
    "$ddigen" emit -q --spec "$pspec" -o "$work/planted-prev" --ddi-version "$prev..$prev"
    "$ddigen" emit -q --spec "$pspec" -o "$work/planted-range" --ddi-version "$prev.."
    wdk_saved=$wdk
    wdk=$kit overlay=$work/overlay-planted.json
    check_set "planted skeleton at $newest" "$work/planted-new" "$newest"
    check_set "planted skeleton at $prev" "$work/planted-prev" "$prev" only
    check_set "planted skeleton for $prev and later" "$work/planted-range" "$prev"
    wdk=$wdk_saved overlay=$work/overlay.json
    if filled "$work/planted-new/ddi_skeleton.c" | grep -qx DxgkDdiPlantedPaging &&
        ! filled "$work/planted-prev/ddi_skeleton.c" | grep -qx DxgkDdiPlantedPaging &&
        grep -B1 'init->DxgkDdiPlantedPaging' "$work/planted-range/ddi_skeleton.c" |
            grep -qx "#if (DXGKDDI_INTERFACE_VERSION >= $(macro "$newest"))"; then
        ok "a member gated on $newest is filled at $newest, not at $prev alone, under its #if from $prev on"
    else
        fail "the planted member's version gate was not followed"
    fi
fi

# A layout-only spec (no discriminators: no tables) still gives files that compile.
snapshot=$src/spec/snapshots/wdk-$(basename "$wdk").layout.xml
if [ -f "$snapshot" ]; then
    "$ddigen" emit -q --spec "$snapshot" -o "$work/layout-only" || fail "emit over the layout snapshot"
    if ! grep -q '_table\[' "$work/layout-only/ddi_dispatch.c"; then
        check_set "files from the layout-only snapshot" "$work/layout-only" "$newest"
    else
        fail "the layout snapshot has discriminators: this check needs a spec without"
    fi
fi

# Dispatch tables: offsets and sizes agree with the compiler's at every target.
cat >"$work/offsets.c" <<'TU'
#include <ntddk.h>
#include <d3dkmddi.h>
#include "ddi_dispatch.c"
#define AT(v, m) (ddi_DXGKARG_BUILDPAGINGBUFFER_Operation_table[v].offset[DDI_DISPATCH_ARCH] == \
                  __builtin_offsetof(DXGKARG_BUILDPAGINGBUFFER, m) && \
                  ddi_DXGKARG_BUILDPAGINGBUFFER_Operation_table[v].size[DDI_DISPATCH_ARCH] == \
                  sizeof(((DXGKARG_BUILDPAGINGBUFFER *)0)->m))
int probe(void)
{
    return AT(0, Transfer) && AT(1, Fill) && AT(8, TransferVirtual) && AT(11, UpdatePageTable) &&
           AT(14, CopyPageTableEntries);
}
TU
bad=0
for a in i686:_X86_ x86_64:_AMD64_ aarch64:_ARM64_; do
    triple=${a%%:*} define=${a##*:}
    MODE=-O2 compile "$work/full-new" "$triple" "$define" default "$work/offsets.c" \
        -S -emit-llvm -o "$work/offsets-$triple.ll" >"$work/log.txt" 2>&1 || { bad=1; head "$work/log.txt"; }
    sed -n '/@probe/,/^}/p' "$work/offsets-$triple.ll" | grep -q 'ret i32 1' || { bad=1; echo "  $triple: offsets differ"; }
done
[ $bad = 0 ] && ok "paging table offsets and sizes equal the compiler's on three targets" ||
    fail "dispatch table offsets"

echo "$passed passed, $failures failed"
[ $failures -eq 0 ]
