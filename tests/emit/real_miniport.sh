#!/usr/bin/env bash
# The generated headers inside a display miniport written the way real ones
# are (tests/fixtures/miniport: C++ and C sources, kit includes inside
# extern "C", user-mode GDI headers before the DDI, d3dkmthk.h, callbacks
# declared through the DDI's role typedefs, so __stdcall on x86), built
# against a real WDK. ddigen generates on the kit with the DDI pages; every
# driver source is then compiled for i686/x86_64/aarch64-pc-windows-msvc at
# the kit's default DXGKDDI_INTERFACE_VERSION and at every version of the
# spec from WDDM2_0 on (the driver needs GPU virtual addressing), -Wall
# -Wextra, without (a) and with (b) HW_WITH_DDIGEN, the switch that makes
# every source include all six generated headers after its own and use
# some of what they declare. A cell passes when both compile and (b) adds
# no diagnostic to (a) (compared without positions).
#
# ddi_skeleton.h is generated for the newest version and #errors below it:
# for an older version the cell includes a skeleton emitted for that
# version (`ddigen emit --outputs skeleton --ddi-version V`).
#   real_miniport.sh DDIGEN CLANG KIT_DIR DOCS_DIR SOURCE_DIR WORK
set -u
ddigen=$1 clang=$2 kit=$3 docs=$4 src=$5 work=$6
if [ ! -d "$kit" ]; then
    echo "SKIP: no real WDK at $kit (../shared is absent)"
    exit 77
fi
kit=$(cd "$kit" && pwd -P)   # the overlay needs the absolute, symlink-free path
driver=$src/tests/fixtures/miniport/src
rm -rf "$work" && mkdir -p "$work"
failures=0 passed=0
fail() { echo "FAIL $*"; failures=$((failures + 1)); }
ok() { echo "ok   $*"; passed=$((passed + 1)); }

docs_arg=()
if [ -d "$docs" ]; then docs_arg=(--docs "$docs"); else echo "note: no DDI pages at $docs, generating without"; fi
"$ddigen" generate --wdk "$kit" "${docs_arg[@]}" -q -o "$work/gen" >"$work/generate.log" 2>&1 ||
    { cat "$work/generate.log"; echo "FAIL generate"; echo "0 passed, 1 failed"; exit 1; }
"$ddigen" overlay --wdk "$kit" -o "$work/overlay.json" || { echo "FAIL overlay"; exit 1; }
spec=$work/gen/spec/ddi.xml

flags=(-fsyntax-only -fms-extensions -fms-compatibility -fms-compatibility-version=19.38 -ffreestanding
       -nostdlibinc -D_KERNEL_MODE -Wall -Wextra -ivfsoverlay "$work/overlay.json"
       -isystem "$kit/km" -isystem "$kit/km/crt" -isystem "$kit/shared" -isystem "$kit/um")

# The versions of the spec (name value), in order.
versions=$(sed -n 's/.*<version name="\([A-Za-z0-9_]*\)" short="\([A-Za-z0-9_]*\)" value="\(0x[0-9A-Fa-f]*\)".*/\2 \3/p' "$spec")
[ -n "$versions" ] || { echo "FAIL no <version> in $spec"; exit 1; }
newest=$(echo "$versions" | tail -1 | cut -d' ' -f1)
wddm20=$(echo "$versions" | awk '$1 == "WDDM2_0" { print $2 }')
[ -n "$wddm20" ] || { echo "FAIL the spec has no WDDM2_0"; exit 1; }
supported=$(echo "$versions" | while read -r name value; do
    [ $((value)) -ge $((wddm20)) ] && echo "$name"; done)

# The kit's default version, as the preprocessor sees it.
printf '#include <ntddk.h>\n#include <dispmprt.h>\nhw_default_version DXGKDDI_INTERFACE_VERSION\n' >"$work/default.c"
default_value=$("$clang" -E -P -target x86_64-pc-windows-msvc "${flags[@]/-fsyntax-only/}" -D_AMD64_ \
    -Wno-everything "$work/default.c" 2>/dev/null | sed -n 's/^hw_default_version *\(0x[0-9A-Fa-f]*\).*/\1/p')
default_name=$(echo "$versions" | awk -v v="$default_value" 'tolower($2) == tolower(v) { print $1 }' | tail -1)
[ -n "$default_name" ] || { echo "FAIL the kit's default DXGKDDI_INTERFACE_VERSION ($default_value) is not in the spec"; exit 1; }
echo "kit default: $default_name ($default_value); driver versions: $(echo $supported); skeleton generated for $newest"

# Skeleton headers per version: the generated ones for the newest, emitted ones otherwise.
skeleton_dir() { # version -> include dir to put first (empty: the generated one)
    local v=$1
    [ "$v" = "$newest" ] && return 0
    if [ ! -d "$work/skeleton-$v" ]; then
        "$ddigen" emit --spec "$spec" --outputs skeleton --ddi-version "$v" -q -o "$work/skeleton-$v" >"$work/skeleton-$v.log" 2>&1 ||
            { cat "$work/skeleton-$v.log"; return 1; }
    fi
    echo "$work/skeleton-$v"
}

compile() { # out triple define version-define skeleton-dir source extra...
    local out=$1 triple=$2 define=$3 vdef=$4 skel=$5 file=$6
    shift 6
    local lang=(-x c -std=c11)
    case "$file" in *.cpp) lang=(-x c++ -std=c++17 -fno-exceptions -fno-rtti) ;; esac
    local inc=()
    [ -n "$skel" ] && inc=(-I"$skel")
    (cd "$work" && "$clang" "${lang[@]}" -target "$triple-pc-windows-msvc" "${flags[@]}" -D"$define" $vdef "$@" \
        -I"$driver" "${inc[@]}" -I"$src/runtime/include" -I"$work/gen/include" "$file") >"$out" 2>&1
}

# Diagnostics without positions: the generated headers may add none.
diagnostics() { grep -E '(warning|error):' "$1" | sed -E 's/:[0-9]+:[0-9]+:/:/' | sort; }

sources=$(cd "$driver" && ls *.cpp *.c)
for cell in default $supported; do
    if [ "$cell" = default ]; then vdef="" v=$default_name; else vdef=-DDXGKDDI_INTERFACE_VERSION=DXGKDDI_INTERFACE_VERSION_$cell v=$cell; fi
    skel=$(skeleton_dir "$v") || { fail "$cell: ddigen emit --outputs skeleton --ddi-version $v"; continue; }
    for a in i686:_X86_ x86_64:_AMD64_ aarch64:_ARM64_; do
        triple=${a%%:*} define=${a##*:}
        for f in $sources; do
            name="$cell $triple $f"
            compile "$work/plain.txt" "$triple" "$define" "$vdef" "$skel" "$driver/$f"
            plain=$?
            compile "$work/with.txt" "$triple" "$define" "$vdef" "$skel" "$driver/$f" -DHW_WITH_DDIGEN
            with=$?
            if [ $plain -ne 0 ]; then
                fail "$name: the driver does not compile without the generated headers:"; grep -E 'error' "$work/plain.txt" | head -5
            elif [ $with -ne 0 ]; then
                fail "$name: the generated headers break the driver's build:"; grep -E 'error' "$work/with.txt" | head -5
            elif [ "$(diagnostics "$work/plain.txt")" != "$(diagnostics "$work/with.txt")" ]; then
                fail "$name: new diagnostics with the generated headers:"
                diff <(diagnostics "$work/plain.txt") <(diagnostics "$work/with.txt") | head -5
            else
                ok "$name"
            fi
        done
    done
done
echo "$passed passed, $failures failed"
[ $failures -eq 0 ]
