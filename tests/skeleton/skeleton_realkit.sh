#!/usr/bin/env bash
# The skeleton fitted to an existing driver, on a real WDK release: the
# driver's own names (--callback-name and `NAME = Fn` in the list, and a C++
# class's static members), table-only mode (--thunks none), one generated
# source for a range of DDI versions compiled at two of them for
# i686/x86_64/aarch64-pc-windows-msvc as C and C++, an out-of-range
# --ddi-version refused before anything is written, and the PnP callbacks
# dispmprt.h annotates _IRQL_requires_DXGK_(PASSIVE_LEVEL) in PAGE.
#   skeleton_realkit.sh DDIGEN CLANG KIT_DIR SOURCE_DIR WORK
# Exit 77 (skipped) without the kit.
set -u
ddigen=$1 clang=$2 kit_arg=$3 src=$4 work=$5
if [ ! -d "$kit_arg" ]; then
    echo "SKIP: no real kit at $kit_arg (../shared is absent): nothing tested"
    exit 77
fi
kit=$(realpath "$kit_arg") # the overlay needs an absolute, symlink-free path
rm -rf "$work" && mkdir -p "$work"
failures=0 passed=0
fail() { echo "FAIL $*"; failures=$((failures + 1)); }
ok() { echo "ok   $*"; passed=$((passed + 1)); }
finish() { echo "$passed passed, $failures failed"; [ "$failures" = 0 ]; exit $?; }

"$ddigen" generate --wdk "$kit" --outputs skeleton -q -o "$work/gen" 2>"$work/gen.txt" ||
    { cat "$work/gen.txt"; fail "generate"; finish; }
"$ddigen" overlay --wdk "$kit" -o "$work/overlay.json" || { fail "overlay"; finish; }
spec=$work/gen/spec/ddi.xml
lo=WDDM2_0 hi=WDDM2_1
grep -q "short=\"$hi\"" "$spec" || { echo "SKIP: $kit has no $hi"; exit 77; }

# The kit's folders are system folders (their warnings are not ours).
kcompile() { # triple define version lang dir file [extra...]
    local triple=$1 define=$2 version=$3 lang=$4 dir=$5 file=$6 std=-std=c11
    shift 6
    [ "$lang" = c++ ] && std=-std=c++17
    "$clang" -fsyntax-only -x "$lang" "$std" -target "$triple-pc-windows-msvc" -fms-extensions \
        -fms-compatibility -fms-compatibility-version=19.38 -ffreestanding -nostdlibinc -D"$define" \
        -D_KERNEL_MODE -DDXGKDDI_INTERFACE_VERSION=DXGKDDI_INTERFACE_VERSION_"$version" -Wall -Wextra -Werror \
        -ivfsoverlay "$work/overlay.json" -isystem "$kit/km" -isystem "$kit/km/crt" -isystem "$kit/shared" \
        -isystem "$kit/um" -I"$src/runtime/include" -I"$dir" -I"$work" "$@" "$file"
}

printf '#include <ntddk.h>\n#include <dispmprt.h>\n#include "ddi_skeleton.h"\n#include "ddi_skeleton_driver.h"\n' \
    >"$work/headers.c"

# One generated set at both versions of the range, three targets: the
# skeleton's .c as LANG, its headers from C and C++.
matrix() { # name dir lang [extra...]
    local name=$1 dir=$2 lang=$3 bad=0 n=0 a v
    shift 3
    for a in i686:_X86_ x86_64:_AMD64_ aarch64:_ARM64_; do
        for v in $lo $hi; do
            n=$((n + 3))
            kcompile "${a%%:*}" "${a##*:}" "$v" "$lang" "$dir" "$dir/ddi_skeleton.c" "$@" >"$work/log.txt" 2>&1 ||
                { bad=1; echo "  $name ddi_skeleton.c ($lang) ${a%%:*} $v:"; head -8 "$work/log.txt"; }
            kcompile "${a%%:*}" "${a##*:}" "$v" c "$dir" "$work/headers.c" "$@" >"$work/log.txt" 2>&1 ||
                { bad=1; echo "  $name headers (C) ${a%%:*} $v:"; head -8 "$work/log.txt"; }
            kcompile "${a%%:*}" "${a##*:}" "$v" c++ "$dir" "$work/headers.c" "$@" >"$work/log.txt" 2>&1 ||
                { bad=1; echo "  $name headers (C++) ${a%%:*} $v:"; head -8 "$work/log.txt"; }
        done
    done
    [ $bad = 0 ] && ok "$name: $n compiles from one generated source (3 targets x $lo and $hi)" ||
        fail "$name does not compile"
}

body_has_paged() { sed -n "/ Ddi$2(/,/^}/p" "$1/ddi_skeleton.c" | grep -q PAGED_CODE; }
fill() { sed -n '/^NTSTATUS ddi_fill_initialization_data/,/^}/p' "$1"; }
emit() { "$ddigen" emit -q --spec "$spec" --outputs skeleton "$@"; }

# The driver's list: its own names by pattern, two by name, one callback
# that exists only at WDDM2_1 (so the one source needs its #if).
cat >"$work/driver.list" <<'LIST'
DxgkDdiAddDevice = HwAddAdapter   # the driver's own name
DxgkDdiStartDevice
DxgkDdiStopDevice
DxgkDdiRemoveDevice
DxgkDdiInterruptRoutine
DxgkDdiDpcRoutine
DxgkDdiQueryAdapterInfo = HwQueryAdapterInfo
DxgkDdiBuildPagingBuffer
DxgkDdiPostMultiPlaneOverlayPresent
LIST
emit --ddi-list "$work/driver.list" --callback-name 'MyDdi%s' --ddi-version "$lo..$hi" -o "$work/named" ||
    fail "emit with the name map"
matrix "named thunks" "$work/named" c
c=$work/named/ddi_skeleton.c
if grep -q '^DXGKDDI_ADD_DEVICE HwAddAdapter;' "$work/named/ddi_skeleton_driver.h" &&
    grep -q '^DXGKDDI_STARTDEVICE MyDdiStartDevice;\|^DXGKDDI_START_DEVICE MyDdiStartDevice;' "$work/named/ddi_skeleton_driver.h" &&
    grep -q 'HwQueryAdapterInfo(' "$c" && grep -q 'MyDdiBuildPagingBuffer(' "$c" && ! grep -q 'drv_' "$c" &&
    fill "$c" | grep -q 'init->DxgkDdiAddDevice = DdiAddDevice;' &&
    fill "$c" | grep -q '^    init->Version = DXGKDDI_INTERFACE_VERSION;$'; then
    ok "thunks call the driver's names (pattern MyDdi%s, HwAddAdapter and HwQueryAdapterInfo by the list)"
else
    fail "the driver's names are not what the thunks call or the header declares"
fi
# DxgkDdiPostMultiPlaneOverlayPresent exists from WDDM2_1: filled and declared under its #if.
if fill "$c" | grep -B1 'init->DxgkDdiPostMultiPlaneOverlayPresent' |
    grep -qx '#if (DXGKDDI_INTERFACE_VERSION >= DXGKDDI_INTERFACE_VERSION_WDDM2_1)' &&
    grep -B1 'MyDdiPostMultiPlaneOverlayPresent;' "$work/named/ddi_skeleton_driver.h" | grep -q '^#if (DXGKDDI' &&
    [ "$(fill "$c" | grep -c '^#if')" = 1 ]; then
    ok "the one member newer than $lo is filled and declared under #if DXGKDDI_INTERFACE_VERSION >= ..._$hi, no other"
else
    fail "per-member version guards"; fill "$c"
fi

# Table-only: the driver's functions in the table, no thunk.
emit --ddi-list "$work/driver.list" --callback-name 'MyDdi%s' --ddi-version "$lo..$hi" --thunks none \
    -o "$work/table" || fail "emit --thunks none"
matrix "table-only" "$work/table" c
t=$work/table/ddi_skeleton.c
if fill "$t" | grep -q 'init->DxgkDdiAddDevice = HwAddAdapter;' &&
    fill "$t" | grep -q 'init->DxgkDdiStartDevice = MyDdiStartDevice;' &&
    ! grep -q '_Use_decl_annotations_\|alloc_text\| Ddi[A-Z][A-Za-z]*(' "$t" &&
    grep -q "the validators of ddi_validate.h are the" "$work/table/ddi_skeleton.h"; then
    ok "--thunks none: the table holds the driver's functions, no thunk; the header says validation is the driver's"
else
    fail "table-only mode"; fill "$t"
fi

# C++: the driver's class's static members.
cat >"$work/hw_class.h" <<'CLASS'
/* A driver class whose static members are its DDI callbacks. */
class HwDriver {
public:
    static DXGKDDI_ADD_DEVICE AddDevice;
    static DXGKDDI_START_DEVICE StartDevice;
    static DXGKDDI_STOP_DEVICE StopDevice;
    static DXGKDDI_REMOVE_DEVICE RemoveDevice;
    static DXGKDDI_INTERRUPT_ROUTINE InterruptRoutine;
    static DXGKDDI_DPC_ROUTINE DpcRoutine;
    static DXGKDDI_QUERYADAPTERINFO QueryAdapterInfo;
    static DXGKDDI_BUILDPAGINGBUFFER BuildPagingBuffer;
#if DXGKDDI_INTERFACE_VERSION >= DXGKDDI_INTERFACE_VERSION_WDDM2_1
    static DXGKDDI_POSTMULTIPLANEOVERLAYPRESENT PostMultiPlaneOverlayPresent;
#endif
};
CLASS
grep -v '= Hw' "$work/driver.list" >"$work/class.list"
echo 'DxgkDdiAddDevice' >>"$work/class.list"
echo 'DxgkDdiQueryAdapterInfo' >>"$work/class.list"
for mode in all none; do
    emit --ddi-list "$work/class.list" --callback-name 'HwDriver::%s' --ddi-version "$lo..$hi" --thunks $mode \
        -o "$work/class-$mode" || fail "emit Class::%s --thunks $mode"
    matrix "C++ static members, thunks=$mode" "$work/class-$mode" c++ '-DDDIGEN_DRIVER_HEADER="hw_class.h"'
done
if grep -q 'HwDriver::AddDevice(' "$work/class-all/ddi_skeleton.c" &&
    fill "$work/class-none/ddi_skeleton.c" | grep -q 'init->DxgkDdiAddDevice = HwDriver::AddDevice;' &&
    ! grep -q '^DXGKDDI[A-Z_]* HwDriver::' "$work/class-all/ddi_skeleton_driver.h" &&
    grep -q 'declared by the driver' "$work/class-all/ddi_skeleton_driver.h" &&
    kcompile x86_64 _AMD64_ $hi c "$work/class-all" "$work/class-all/ddi_skeleton.c" \
        '-DDDIGEN_DRIVER_HEADER="hw_class.h"' 2>&1 | grep -q 'compile it as C++'; then
    ok "Class::%s: thunks call and the table holds the static members, which only the class declares; C is refused by name"
else
    fail "C++ static member names"
fi

# Below and above the range, the generated header stops the build by name.
for v in WIN8:below; do
    kcompile x86_64 _AMD64_ "${v%%:*}" c "$work/named" "$work/headers.c" >"$work/log.txt" 2>&1
    grep -m1 'error:' "$work/log.txt" | grep -q "generated for DXGKDDI_INTERFACE_VERSION_$lo to DXGKDDI_INTERFACE_VERSION_$hi: DXGKDDI_INTERFACE_VERSION is ${v##*:} that" &&
        ok "at ${v%%:*} the first error is the skeleton's: ${v##*:} the range" || { fail "no range error at ${v%%:*}"; head -3 "$work/log.txt"; }
done
emit --ddi-list "$work/driver.list" --ddi-version "WIN8..WDDM2_0" -o "$work/narrow" || fail "emit WIN8..WDDM2_0"
kcompile x86_64 _AMD64_ $hi c "$work/narrow" "$work/headers.c" >"$work/log.txt" 2>&1
grep -m1 'error:' "$work/log.txt" | grep -q 'DXGKDDI_INTERFACE_VERSION is above that' &&
    ok "a skeleton for WIN8..WDDM2_0 stops a $hi build: above the range" || { fail "no error above the range"; head -3 "$work/log.txt"; }

# Outside the kit's versions: exit 1, one error line naming no file, nothing written.
refused() { # label text args...
    local label=$1 text=$2
    shift 2
    rm -rf "$work/refused"
    "$ddigen" emit -q --spec "$spec" --outputs skeleton -o "$work/refused" "$@" 2>"$work/err.txt"
    local rc=$?
    if [ $rc = 1 ] && grep -qF -- "$text" "$work/err.txt" && [ "$(grep -c 'error' "$work/err.txt")" = 1 ] &&
        ! grep -q "$spec\|ddi.xml" "$work/err.txt" && [ ! -e "$work/refused" ]; then
        ok "$label: exit 1, nothing written: $(head -1 "$work/err.txt" | cut -c1-110)"
    else
        fail "$label: exit $rc"; cat "$work/err.txt"
    fi
}
refused "a version the kit lacks" "'WDDM9_9' is not a DDI version of the spec (it has VISTA..$hi)" \
    --ddi-version "$lo..WDDM9_9"
refused "a reversed range" "the range is reversed ($hi is newer than $lo)" --ddi-version "$hi..$lo"
refused "a pattern that names the thunks" "those are the thunks' names" --callback-name 'Ddi%s'
refused "display-only before its structure" "KMDDOD_INITIALIZATION_DATA does not exist at VISTA" \
    --driver-kind display-only --ddi-version "VISTA..$hi"

# IRQL: the display-only callbacks whose role typedef dispmprt.h annotates
# _IRQL_requires_DXGK_(PASSIVE_LEVEL), counted from the spec, are in PAGE
# with PAGED_CODE(): in the text, and in the x64 object's sections.
emit --driver-kind display-only --all --ddi-version "$lo.." -o "$work/dod" || fail "emit display-only"
mkdir -p "$work/obj"
"$clang" -c -O2 -x c -std=c11 -target x86_64-pc-windows-msvc -fms-extensions -fms-compatibility \
    -fms-compatibility-version=19.38 -ffreestanding -nostdlibinc -D_AMD64_ -D_KERNEL_MODE \
    -ivfsoverlay "$work/overlay.json" -isystem "$kit/km" -isystem "$kit/km/crt" -isystem "$kit/shared" \
    -isystem "$kit/um" -I"$src/runtime/include" -I"$work/dod" "$work/dod/ddi_skeleton.c" -o "$work/obj/dod.o" ||
    fail "display-only skeleton object"
objdump=$(command -v llvm-objdump || command -v llvm-objdump-14 || echo llvm-objdump)
"$objdump" -h -t "$work/obj/dod.o" >"$work/obj/dod.txt" 2>&1 || fail "llvm-objdump"
python3 - "$spec" "$work/dod/ddi_skeleton.c" "$work/obj/dod.txt" >"$work/irql.txt" <<'PY'
import re, sys, xml.etree.ElementTree as ET
spec = ET.parse(sys.argv[1]).getroot().find('layout')
fns = {f.get('name'): f for f in spec.findall('function-type')}
rec = [r for r in spec.findall('record') if r.get('name') == 'KMDDOD_INITIALIZATION_DATA'][0]
c = open(sys.argv[2]).read()
obj = open(sys.argv[3]).read()
# Section numbers (1-based in the symbol table) of the sections named PAGE.
sections = re.findall(r'^\s*(\d+)\s+(\S+)\s', obj, re.M)
page = {str(int(i) + 1) for i, name in sections if name == 'PAGE'}
def section_of(sym):
    m = re.search(r'\(sec\s+(\d+)\).*\s%s$' % re.escape(sym), obj, re.M)
    return m.group(1) if m else None
want, bad = [], []
for f in rec.findall('field'):
    ptr = fns.get(f.get('type'))
    role = fns.get(ptr.get('pointer-to')) if ptr is not None and ptr.get('pointer-to') else None
    pnp = role is not None and role.get('file') == 'dispmprt.h' and \
        '_IRQL_requires_DXGK_(PASSIVE_LEVEL)' in (role.get('sal') or '')
    short = f.get('name')[len('DxgkDdi'):]
    body = re.search(r'#pragma code_seg\(push, "PAGE"\)\n#endif\n_Use_decl_annotations_\n[^\n]* Ddi%s\([^)]*\)\n\{\n(.*?)\n\}' % short, c, re.S)
    if pnp:
        want.append(short)
        if not body or 'PAGED_CODE();' not in body.group(1) or section_of('Ddi' + short) not in page:
            bad.append(short)
    elif role is not None and section_of('Ddi' + short) in page and not body:
        bad.append(short + '(paged-without-pragma)')
print(len(want), ' '.join(bad))
PY
read -r npnp missing <"$work/irql.txt"
[ "$npnp" = 16 ] && [ -z "${missing:-}" ] &&
    ok "the 16 PnP thunks dispmprt.h annotates _IRQL_requires_DXGK_(PASSIVE_LEVEL) are in PAGE with PAGED_CODE() (the x64 object's section)" ||
    fail "PnP thunks: $npnp annotated, not in PAGE: ${missing:-none}"
page_sec=$(awk '$2 == "PAGE" { print $1 + 1 }' "$work/obj/dod.txt")
grep -qE "\(sec +[0-9]+\).* DdiDpcRoutine\$" "$work/obj/dod.txt" &&
    ! grep -qE "\(sec +$page_sec\).* DdiDpcRoutine\$" "$work/obj/dod.txt" && ! body_has_paged "$work/dod" DpcRoutine &&
    ok "DdiDpcRoutine (DISPATCH_LEVEL) stays resident" || fail "DdiDpcRoutine is pageable"
matrix "display-only $lo.." "$work/dod" c
finish
