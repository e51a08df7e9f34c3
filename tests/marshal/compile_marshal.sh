#!/usr/bin/env bash
# Compiles the generated ddi_marshal.c (as C) and ddi_marshal.h (in a C and
# a C++ translation unit) against a fixture WDK release: clang for
# i686/x86_64/aarch64-pc-windows-msvc at every DDI version of the spec and
# the kit's default, -ffreestanding -Wall -Wextra -Werror, and gcc and clang
# for the host. The WDK headers are system headers here: their own warnings
# are not under test, the generated code's are.
# The spec is built with the fixture pages, so unions with a discriminator
# are in it.
#   compile_marshal.sh DDIGEN CLANG WDK_DIR DOCS_DIR RUNTIME_INCLUDE WORK
set -u
ddigen=$1 clang=$2 wdk=$3 docs=$4 rt=$5 work=$6
rm -rf "$work" && mkdir -p "$work"
"$ddigen" generate --wdk "$wdk" --docs "$docs" -q -o "$work/gen" || { echo "FAIL generate"; exit 1; }
ln -s gen/spec/ddi.xml "$work/spec.xml" && ln -s gen/include "$work/include"
grep -q '<discriminator ' "$work/spec.xml" || { echo "FAIL the spec has no discriminator: the test would not cover unions"; exit 1; }
# Deterministic: a second rendering is byte-identical.
"$ddigen" emit --spec "$work/spec.xml" -o "$work/once" && "$ddigen" emit --spec "$work/spec.xml" -o "$work/again" ||
    { echo "FAIL emit"; exit 1; }
for f in ddi_marshal.c ddi_marshal.h; do
    cmp -s "$work/once/$f" "$work/again/$f" || { echo "FAIL $f differs between two renderings"; exit 1; }
done
echo "ok   ddi_marshal.c and .h are byte-identical across renderings"
"$ddigen" overlay --wdk "$wdk" -o "$work/overlay.json" || { echo "FAIL overlay"; exit 1; }
[ -s "$work/include/ddi_marshal.c" ] || { echo "FAIL emit wrote no ddi_marshal.c"; exit 1; }
versions=$(grep -o '<version name="[A-Za-z0-9_]*"' "$work/spec.xml" | sed 's/.*name="\(.*\)"/\1/')
printf '#include <ntddk.h>\n#include <dispmprt.h>\n#include "ddi_marshal.h"\nconst ddi_marshal_type *ddigen_probe_types(void) { return ddi_marshal_types; }\n' >"$work/hdr.c"
cp "$work/hdr.c" "$work/hdr.cpp"
common=(-fms-extensions -fms-compatibility -fms-compatibility-version=19.38 -nostdlibinc -ffreestanding
        -D_KERNEL_MODE '-Dstatic_assert(...)=' -Wall -Wextra -Werror -ivfsoverlay "$work/overlay.json"
        -isystem "$wdk/km" -isystem "$wdk/shared" -isystem "$wdk/um" -I"$rt" -I"$work/include")

check_config() { # triple define version
    local triple=$1 define=$2 v=$3 log=$work/log-$1-$3.txt vdef=-DDXGKDDI_INTERFACE_VERSION=$3
    [ "$v" = default ] && vdef=-DDDIGEN_KIT_DEFAULT_VERSION
    local args=(-target "$triple-pc-windows-msvc" -D"$define" "$vdef" "${common[@]}")
    if ! "$clang" -fsyntax-only "${args[@]}" "$work/include/ddi_marshal.c" >"$log" 2>&1; then
        echo "FAIL $triple $v: ddi_marshal.c"; grep -m5 -E 'error|warning' "$log"; return
    fi
    if ! "$clang" -fsyntax-only "${args[@]}" -x c++ "$work/hdr.cpp" >"$log" 2>&1; then
        echo "FAIL $triple $v: ddi_marshal.h as C++"; grep -m5 -E 'error|warning' "$log"; return
    fi
}

archs="i686:_X86_ x86_64:_AMD64_ aarch64:_ARM64_"
configs=0 failures=0
jobs=$(nproc 2>/dev/null || echo 2)
for a in $archs; do
    for v in $versions default; do
        configs=$((configs + 1))
        while [ "$(jobs -rp | wc -l)" -ge "$jobs" ]; do wait -n; done
        check_config "${a%%:*}" "${a##*:}" "$v" >"$work/result-$configs.txt" &
    done
done
wait
for r in "$work"/result-*.txt; do
    if [ -s "$r" ]; then cat "$r"; failures=$((failures + 1)); fi
done
[ $failures -eq 0 ] && echo "ok   ddi_marshal.c and .h compile for $configs MSVC configurations (3 archs x $((configs / 3 - 1)) versions and the kit's default)"

# Host compilers (a host tool reads traces with the same code).
host=(-std=c11 -ffreestanding -D_KERNEL_MODE -D_AMD64_ -Wall -Wextra -Werror
      -isystem "$wdk/km" -isystem "$wdk/shared" -isystem "$wdk/um" -I"$rt" -I"$work/include")
for cc in gcc "$clang"; do
    if "$cc" -c -O1 "${host[@]}" "$work/include/ddi_marshal.c" -o "$work/host.o" >"$work/host.txt" 2>&1; then
        echo "ok   host $cc"
    else
        echo "FAIL host $cc"; grep -m5 -E 'error|warning' "$work/host.txt"; failures=$((failures + 1))
    fi
done
[ $failures -eq 0 ]
