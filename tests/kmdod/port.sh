#!/usr/bin/env bash
# The display-only sample (tests/fixtures/kmdod: a C++ KMDOD miniport with
# its own names, a device class and a hand-written KMDDOD_INITIALIZATION_DATA)
# ported onto ddigen's skeleton on a real WDK, as a driver team would:
#   ddigen generate --outputs skeleton,validate --driver-kind display-only
#       --ddi-list bdd.list --callback-name 'BddDdi%s'
#       --param ddi-version=WDDM1_3..WDDM2_0
# (bdd.list names the two functions that do not follow the pattern). Then:
# the generated table fills the members the hand-written one does, under
# the driver's names, one member under its #if; the driver as written and
# the port (BDD_PORTED: the skeleton's declarations and fill, the thunks
# validating) compile from the one generated source for
# i686/x86_64/aarch64-pc-windows-msvc at WDDM1_3 and at WDDM2_0 (each with
# its NTDDI_VERSION) with -Wall -Wextra -Werror, and so does the table-only
# port (--thunks none); every driver function the thunks call or the
# table names is defined under the same symbol (on x86 the __stdcall
# decoration, so the calling convention too); the thunks of PASSIVE_LEVEL
# callbacks are in PAGE, the others resident; a build above the range
# stops at the skeleton's #error.
#   port.sh DDIGEN CLANG KIT_DIR SOURCE_DIR WORK
# Exit 77 (skipped) without the kit.
set -u
ddigen=$1 clang=$2 kit_arg=$3 src=$4 work=$5
if [ ! -d "$kit_arg" ]; then
    echo "SKIP: no real kit at $kit_arg (../shared is absent): nothing tested"
    exit 77
fi
kit=$(realpath "$kit_arg") # the overlay needs an absolute, symlink-free path
driver=$src/tests/fixtures/kmdod
rm -rf "$work" && mkdir -p "$work"
failures=0 passed=0
fail() { echo "FAIL $*"; failures=$((failures + 1)); }
ok() { echo "ok   $*"; passed=$((passed + 1)); }
finish() { echo "$passed passed, $failures failed"; [ "$failures" = 0 ]; exit $?; }

lo=WDDM1_3 hi=WDDM2_0
"$ddigen" generate --wdk "$kit" --outputs skeleton,validate --driver-kind display-only \
    --ddi-list "$driver/bdd.list" --callback-name 'BddDdi%s' --param ddi-version=$lo..$hi \
    -q -o "$work/gen" 2>"$work/gen.txt" || { cat "$work/gen.txt"; fail "generate"; finish; }
"$ddigen" overlay --wdk "$kit" -o "$work/overlay.json" || { fail "overlay"; finish; }
gen=$work/gen/include
# Table-only (--thunks none) from the same spec.
"$ddigen" emit -q --spec "$work/gen/spec/ddi.xml" --outputs skeleton --driver-kind display-only \
    --ddi-list "$driver/bdd.list" --callback-name 'BddDdi%s' --ddi-version $lo..$hi --thunks none \
    -o "$work/table" 2>"$work/table.txt" || { cat "$work/table.txt"; fail "emit --thunks none"; finish; }

# 1. The generated fill against the hand-written table: the same members,
#    the driver's names, Version from the build, one #if (the WDDM 2.0 member).
fill() { sed -n '/^NTSTATUS ddi_fill_initialization_data/,/^}/p' "$gen/ddi_skeleton.c"; }
sed -n 's/^ *InitialData\.\(DxgkDdi[A-Za-z]*\) = .*/\1/p' "$driver/src/bdd_ddi.cpp" | sort >"$work/hand.members"
fill | sed -n 's/^ *init->\(DxgkDdi[A-Za-z]*\) = .*/\1/p' | sort >"$work/gen.members"
if [ "$(wc -l <"$work/hand.members")" = 30 ] && diff -u "$work/hand.members" "$work/gen.members"; then
    ok "the generated fill sets the 30 members the hand-written table sets"
else
    fail "the generated fill and the hand-written table differ"
fi
d=$gen/ddi_skeleton_driver.h
if [ "$(grep -c '^DXGKDDI_[A-Z_]* BddDdi[A-Za-z]*;$' "$d")" = 30 ] &&
    grep -q '^DXGKDDI_DISPATCH_IO_REQUEST BddDdiIoRequest;$' "$d" &&
    grep -q '^DXGKDDI_ADD_DEVICE BddDdiAddDevice;$' "$d" &&
    grep -B1 '^DXGKDDI_POWERRUNTIMESETDEVICEHANDLE BddDdiSetPoDeviceHandle;$' "$d" |
    grep -qx "#if (DXGKDDI_INTERFACE_VERSION >= DXGKDDI_INTERFACE_VERSION_$hi)" &&
    ! grep -q 'drv_' "$gen/ddi_skeleton.c" "$d" &&
    fill | grep -qx '    init->Version = DXGKDDI_INTERFACE_VERSION;' && [ "$(fill | grep -c '^#if')" = 1 ]; then
    ok "30 declarations under the driver's names (BddDdi%s, BddDdiIoRequest and BddDdiSetPoDeviceHandle from the list), the $hi member under its #if"
else
    fail "the driver's names or the version guards"; cat "$d"
fi

# 2. Compile: the kit's folders are system folders (their warnings are not ours).
kcompile() { # triple define version ntddi out file [extra...]
    local triple=$1 define=$2 version=$3 ntddi=$4 out=$5 file=$6 lang
    shift 6
    case "$file" in
    *.cpp) lang=(-x c++ -std=c++17 -fno-exceptions -fno-rtti) ;;
    *) lang=(-x c -std=c11) ;;
    esac
    "$clang" -c -O1 "${lang[@]}" -target "$triple-pc-windows-msvc" -fms-extensions -fms-compatibility \
        -fms-compatibility-version=19.38 -ffreestanding -nostdlibinc -D"$define" -D_KERNEL_MODE \
        -DNTDDI_VERSION="$ntddi" -D_WIN32_WINNT="${ntddi:0:6}" \
        -DDXGKDDI_INTERFACE_VERSION=DXGKDDI_INTERFACE_VERSION_"$version" -Wall -Wextra -Werror \
        -ivfsoverlay "$work/overlay.json" -isystem "$kit/km" -isystem "$kit/km/crt" -isystem "$kit/shared" \
        -isystem "$kit/um" -I"$driver/src" "$@" "$file" -o "$out"
}
# The OS each DDI version came with: WDDM 1.3 with Windows 8.1, 2.0 with Windows 10.
ntddi_of() { case $1 in WDDM1_3) echo 0x06030000 ;; WDDM2_0) echo 0x0A000000 ;; esac; }
ported=(-DBDD_PORTED -I"$gen" -I"$src/runtime/include" -DDDIGEN_VALIDATE -DDDIGEN_HAVE_VALIDATE
        '-DDDIGEN_WDK_HEADER="bdd_kit.h"')
nm=$(command -v llvm-nm || command -v llvm-nm-14 || echo llvm-nm)
objdump=$(command -v llvm-objdump || command -v llvm-objdump-14 || echo llvm-objdump)
sources="bdd_ddi.cpp bdd_adapter.cpp bdd_vidpn.cpp bdd_blt.cpp"
# What ddi_skeleton.o references of the driver's (the driver's names,
# x86-decorated) is what bdd_ddi.o defines, WANT of them.
link_check() { # objdir want label
    local p=$1 want=$2
    "$nm" "$p/ddi_skeleton.o" 2>/dev/null | sed -n 's/^ *U \(.*BddDdi.*\)$/\1/p' | sort >"$p/called"
    "$nm" "$p/bdd_ddi.o" 2>/dev/null | sed -n 's/^[0-9a-f]* T \(.*BddDdi.*\)$/\1/p' | sort >"$p/defined"
    [ "$(wc -l <"$p/called")" = "$want" ] && [ -z "$(comm -23 "$p/called" "$p/defined")" ] && return 0
    echo "  $3: $(wc -l <"$p/called") driver functions referenced (want $want); undefined:"
    comm -23 "$p/called" "$p/defined" | head -5
    return 1
}
bad_build=0 bad_link=0 n=0
for a in i686:_X86_ x86_64:_AMD64_ aarch64:_ARM64_; do
    for v in $lo $hi; do
        cell=${a%%:*}-$v
        mkdir -p "$work/obj/$cell/hand" "$work/obj/$cell/port"
        for f in $sources; do
            n=$((n + 2))
            kcompile "${a%%:*}" "${a##*:}" $v "$(ntddi_of $v)" "$work/obj/$cell/hand/${f%.*}.o" \
                "$driver/src/$f" >"$work/log.txt" 2>&1 ||
                { bad_build=1; echo "  as written: $cell $f:"; head -8 "$work/log.txt"; }
            kcompile "${a%%:*}" "${a##*:}" $v "$(ntddi_of $v)" "$work/obj/$cell/port/${f%.*}.o" \
                "$driver/src/$f" "${ported[@]}" >"$work/log.txt" 2>&1 ||
                { bad_build=1; echo "  ported: $cell $f:"; head -8 "$work/log.txt"; }
        done
        for f in ddi_skeleton.c ddi_validate.c; do
            n=$((n + 1))
            kcompile "${a%%:*}" "${a##*:}" $v "$(ntddi_of $v)" "$work/obj/$cell/port/${f%.*}.o" "$gen/$f" \
                "${ported[@]}" >"$work/log.txt" 2>&1 ||
                { bad_build=1; echo "  generated: $cell $f:"; head -8 "$work/log.txt"; }
        done
        # Table-only: the fill names the driver's functions, no thunk between.
        mkdir -p "$work/obj/$cell/table"
        for f in "$driver/src/bdd_ddi.cpp" "$work/table/ddi_skeleton.c"; do
            n=$((n + 1))
            kcompile "${a%%:*}" "${a##*:}" $v "$(ntddi_of $v)" "$work/obj/$cell/table/$(basename "${f%.*}").o" "$f" \
                -I"$work/table" "${ported[@]}" >"$work/log.txt" 2>&1 ||
                { bad_build=1; echo "  table-only: $cell $(basename "$f"):"; head -8 "$work/log.txt"; }
        done
        want=30
        [ $v = $lo ] && want=29
        link_check "$work/obj/$cell/port" $want "$cell thunks" || bad_link=1
        link_check "$work/obj/$cell/table" $want "$cell table-only" || bad_link=1
    done
done
[ $bad_build = 0 ] && ok "$n compiles, -Wall -Wextra -Werror: the driver as written, ported and table-only, 3 targets x $lo and $hi from one generated source" ||
    fail "the driver does not compile"
[ $bad_link = 0 ] && ok "every driver function the thunks call or the table-only fill names is defined under the same symbol (x86: the same __stdcall decoration); 29 at $lo, 30 at $hi" ||
    fail "the skeleton references what the driver does not define"
grep -q '_BddDdiPresentDisplayOnly@8' "$work/obj/i686-$hi/port/called" &&
    ok "on x86 the thunk calls _BddDdiPresentDisplayOnly@8: the driver's definition is __stdcall" ||
    fail "no __stdcall BddDdiPresentDisplayOnly on x86"

# 3. Paging of the thunks (x64 object): PASSIVE_LEVEL callbacks in PAGE,
#    raised-IRQL ones (interrupt, DPC, reset, the system display) resident.
"$objdump" -h -t "$work/obj/x86_64-$hi/port/ddi_skeleton.o" >"$work/sections.txt" 2>&1
page_sec=$(awk '$2 == "PAGE" { print $1 + 1 }' "$work/sections.txt")
section_of() { sed -n "s/^.*(sec *\([0-9]*\)).* $1\$/\1/p" "$work/sections.txt"; }
paging_bad=""
for t in DdiAddDevice DdiStartDevice DdiCommitVidPn DdiPresentDisplayOnly DdiPowerRuntimeSetDeviceHandle; do
    [ -n "$page_sec" ] && [ "$(section_of $t)" = "$page_sec" ] || paging_bad="$paging_bad $t(not in PAGE)"
done
for t in DdiInterruptRoutine DdiDpcRoutine DdiResetDevice DdiSystemDisplayWrite DdiSystemDisplayEnable; do
    s=$(section_of $t)
    [ -n "$s" ] && [ "$s" != "$page_sec" ] || paging_bad="$paging_bad $t(paged)"
done
[ -z "$paging_bad" ] && ok "thunks: PASSIVE_LEVEL callbacks in PAGE, interrupt/DPC/reset/system display resident (x64 object)" ||
    fail "thunk sections:$paging_bad"

# 4. Above the range (the kit's default, WDDM2_1), the skeleton stops the build by name.
kcompile x86_64 _AMD64_ WDDM2_1 0x0A000002 "$work/above.o" "$driver/src/bdd_ddi.cpp" "${ported[@]}" \
    >"$work/log.txt" 2>&1
grep -m1 'error:' "$work/log.txt" | grep -q "generated for DXGKDDI_INTERFACE_VERSION_$lo to DXGKDDI_INTERFACE_VERSION_$hi: DXGKDDI_INTERFACE_VERSION is above that" &&
    ok "at WDDM2_1 the first error is the skeleton's: above the range" || { fail "no range error at WDDM2_1"; head -3 "$work/log.txt"; }
finish
