#!/usr/bin/env bash
# The generated families on a real WDK release, as a driver build sees them:
# `ddigen generate` with and without the real pages, then every generated .c
# compiled as kernel C (-ffreestanding, no CRT) and every generated header
# included from C (-std=c11) and C++ (-std=c++17), for i686, x86_64 and
# aarch64-pc-windows-msvc, at every DDI version the kit defines and at none
# (the kit's default), with -Wall -Wextra: the kit's headers are system
# headers, so any warning is the generated code's and fails its cell. One
# object per family is compiled for real (-c -O2). The skeleton, generated
# for one DDI version, is generated for each and compiled at it; below its
# version it must stop with its own #error. The paging runtime's sources
# compile against the kit at every version it supports.
#   kit_matrix.sh DDIGEN CLANG KIT_DIR DOCS_DIR SOURCE_DIR WORK
# (SOURCE_DIR: the project's tree, for runtime/.)
# Prints one line per (family, arch, language) with the versions that
# passed, then "N passed, M failed". Exit 77 (skipped) without the kit.
set -u
ddigen=$1 clang=$2 kit_arg=$3 docs=$4 src=$5 work=$6
if [ ! -d "$kit_arg" ]; then
    echo "SKIP: no real kit at $kit_arg (../shared is absent): nothing tested"
    exit 77
fi
kit=$(realpath "$kit_arg")   # the overlay needs an absolute, symlink-free path
name=$(basename "$kit")
rm -rf "$work" && mkdir -p "$work"
jobs_max=$(nproc 2>/dev/null || echo 2)

# --- generation ---------------------------------------------------------
"$ddigen" overlay --wdk "$kit" -o "$work/overlay.json" || { echo "FAIL overlay"; echo "0 passed, 1 failed"; exit 1; }
variants=plain
"$ddigen" generate --wdk "$kit" -q -o "$work/plain" 2>"$work/gen-plain.txt" ||
    { echo "FAIL generate on $name:"; head -20 "$work/gen-plain.txt"; echo "0 passed, 1 failed"; exit 1; }
if [ -d "$docs" ]; then
    "$ddigen" generate --wdk "$kit" --docs "$docs" -q -o "$work/docs" 2>"$work/gen-docs.txt" ||
        { echo "FAIL generate --docs on $name:"; head -20 "$work/gen-docs.txt"; echo "0 passed, 1 failed"; exit 1; }
    variants="plain docs"
else
    echo "note: no pages at $docs: generate --docs not tested"
fi
versions=$(grep -o '<version name="DXGKDDI_INTERFACE_VERSION_[A-Za-z0-9_]*"' "$work/plain/spec/ddi.xml" |
           sed 's/.*name="DXGKDDI_INTERFACE_VERSION_\(.*\)"/\1/')
nversions=$(echo "$versions" | wc -w)
[ "$nversions" -gt 0 ] || { echo "FAIL no DDI version in the spec"; echo "0 passed, 1 failed"; exit 1; }
latest=$(echo "$versions" | tail -1)

# Skeletons for every version (the generated one is for the latest).
for v in $variants; do
    for ver in $versions; do
        "$ddigen" emit --spec "$work/$v/spec/ddi.xml" --outputs skeleton --ddi-version "$ver" \
            -o "$work/$v/skeleton-$ver" 2>"$work/emit-skel.txt" ||
            { echo "FAIL emit --outputs skeleton --ddi-version $ver ($v):"; head -5 "$work/emit-skel.txt"; }
    done
done

# --- compiling ----------------------------------------------------------
family_of() {
    case "$1" in
    ddi_layout_asserts*) echo asserts ;;
    ddi_validate* | ddi_rules*) echo validate ;;
    ddi_marshal*) echo marshal ;;
    ddi_dispatch*) echo dispatch ;;
    ddi_skeleton*) echo skeleton ;;
    *) echo other ;;
    esac
}
# The generated headers a file includes, transitively (for deduplication:
# a file whose text and included headers are the same as a cell already
# compiled compiles the same way).
content_key() { # dir file
    local dir=$1 h
    local -a todo=("$2") seen=()
    while [ ${#todo[@]} -gt 0 ]; do
        h=${todo[0]}
        todo=("${todo[@]:1}")
        case " ${seen[*]} " in *" $h "*) continue ;; esac
        seen+=("$h")
        [ -f "$dir/$h" ] || continue
        todo+=($(sed -n 's/^#include "\(ddi_[a-z_]*\.h\)".*/\1/p' "$dir/$h"))
    done
    (cd "$dir" && cat "${seen[@]}" 2>/dev/null) | sha1sum | cut -c1-16
}

# The kit's folders are system folders (their warnings are not ours). km/crt
# comes before clang's own headers, as in an MSVC build (10240's wdm.h needs
# its intrin.h in C++ for arm64: clang 14's lacks __readx18dword), except for
# the runtime, whose SIMD code uses the compiler's intrinsics headers: there
# it comes after them, as clang-cl orders them (MSVC's intrin.h and clang's
# emmintrin.h cannot meet in one translation unit).
kcompile() { # triple define version lang out-args... file
    local triple=$1 define=$2 version=$3 lang=$4
    shift 4
    local crt=(-isystem "$kit/km/crt")
    case " $* " in *"/runtime/src/"*) crt=(-idirafter "$kit/km/crt") ;; esac
    local vdef=() std=-std=c11
    [ "$version" = default ] || vdef=(-DDXGKDDI_INTERFACE_VERSION=DXGKDDI_INTERFACE_VERSION_"$version")
    [ "$lang" = c++ ] && std=-std=c++17
    "$clang" -x "$lang" "$std" -target "$triple-pc-windows-msvc" -fms-extensions -fms-compatibility \
        -fms-compatibility-version=19.38 -ffreestanding -nostdlibinc -D"$define" -D_KERNEL_MODE \
        "${vdef[@]}" -Wall -Wextra -ivfsoverlay "$work/overlay.json" \
        -isystem "$kit/km" "${crt[@]}" -isystem "$kit/shared" -isystem "$kit/um" \
        -I"$src/runtime/include" "$@"
}

# One cell: compile, then judge. expect=ok: exit 0 and no warning;
# expect=error:TEXT: fails, and the first error says TEXT (clang goes on
# after an #error; the ones after it follow from it).
run_cell() { # id expect label triple define version lang args...
    local id=$1 expect=$2 label=$3
    shift 3
    local log=$work/cells/$id.log
    kcompile "$@" >"$log" 2>&1
    local rc=$?
    local verdict=ok
    case "$expect" in
    ok)
        if [ $rc -ne 0 ]; then verdict="does not compile: $(grep -m1 'error:' "$log")"
        elif grep -q 'warning:' "$log"; then verdict="warns: $(grep -m1 'warning:' "$log")"
        fi ;;
    error:*)
        local text=${expect#error:}
        if [ $rc -eq 0 ]; then verdict="compiled; expected the #error \"$text\""
        elif ! grep -m1 'error:' "$log" | grep -qF "$text"; then verdict="the first error is not \"$text\": $(grep -m1 'error:' "$log")"
        fi ;;
    esac
    echo "$label|$verdict" >"$work/cells/$id.result"
    [ "$verdict" = ok ] && rm -f "$log"
}
mkdir -p "$work/cells" "$work/tu"
cell=0
spawn() {
    cell=$((cell + 1))
    while [ "$(jobs -rp | wc -l)" -ge "$jobs_max" ]; do wait -n; done
    run_cell "$cell" "$@" &
}

declare -A done_keys
archs="i686:_X86_ x86_64:_AMD64_ aarch64:_ARM64_"
for a in $archs; do
    triple=${a%%:*} define=${a##*:}
    for ver in $versions default; do
        for v in $variants; do
            inc=$work/$v/include
            for f in "$inc"/*.c "$inc"/*.h; do
                base=$(basename "$f") fam=$(family_of "$(basename "$f")")
                [ "$fam" = skeleton ] && continue   # below, per version
                langs=c
                case "$base" in *.h) langs="c c++" ;; esac
                for lang in $langs; do
                    key="$(content_key "$inc" "$base")-$triple-$ver-$lang"
                    label="$fam|$triple|$lang|$ver|$base"
                    if [ -n "${done_keys[$key]:-}" ]; then continue; fi
                    done_keys[$key]=1
                    if [ "${base%.c}" != "$base" ]; then
                        spawn ok "$label" "$triple" "$define" "$ver" c -fsyntax-only -I"$inc" "$f"
                    else
                        tu=$work/tu/$v-$base.$lang
                        printf '#include <ntddk.h>\n#include <dispmprt.h>\n#include "%s"\n' "$base" >"$tu"
                        spawn ok "$label" "$triple" "$define" "$ver" "$lang" -fsyntax-only -I"$inc" "$tu"
                    fi
                done
            done
            # The skeleton generated for each version: compiled at it (and
            # the latest one at the kit's default); below it, its #error.
            for sv in $versions; do
                sdir=$work/$v/skeleton-$sv
                [ -d "$sdir" ] || continue
                [ "$ver" = "$sv" ] || { [ "$ver" = default ] && [ "$sv" = "$latest" ]; } || continue
                for f in "$sdir"/*.c "$sdir"/*.h; do
                    base=$(basename "$f")
                    langs=c
                    case "$base" in *.h) langs="c c++" ;; esac
                    for lang in $langs; do
                        key="$(content_key "$sdir" "$base")-$triple-$ver-$lang"
                        [ -n "${done_keys[$key]:-}" ] && continue
                        done_keys[$key]=1
                        label="skeleton|$triple|$lang|$ver|$base"
                        if [ "${base%.c}" != "$base" ]; then
                            spawn ok "$label" "$triple" "$define" "$ver" c -fsyntax-only -I"$sdir" -I"$inc" "$f"
                        else
                            tu=$work/tu/$v-skel-$sv-$base.$lang
                            printf '#include <ntddk.h>\n#include <dispmprt.h>\n#include "%s"\n' "$base" >"$tu"
                            spawn ok "$label" "$triple" "$define" "$ver" "$lang" -fsyntax-only -I"$sdir" "$tu"
                        fi
                    done
                done
            done
        done
    done
done
# Below the version it was generated for, the skeleton refuses by name.
first=$(echo "$versions" | head -1)
if [ "$first" != "$latest" ]; then
    tu=$work/tu/skel-below.c
    printf '#include <ntddk.h>\n#include <dispmprt.h>\n#include "ddi_skeleton.h"\n' >"$tu"
    spawn "error:ddi_skeleton.h was generated for DXGKDDI_INTERFACE_VERSION_$latest" \
        "skeleton-refusal|x86_64|c|$first|ddi_skeleton.h" x86_64 _AMD64_ "$first" c -fsyntax-only -I"$work/plain/skeleton-$latest" "$tu"
fi

# --- the paging runtime -------------------------------------------------
# Its sources with the dispatch table and validators generated from this
# kit, at every version from WDDM2_0 (the DDI it encodes) and the default;
# below WDDM2_0 its #error must be the first error.
inc=$work/${variants##* }/include
runtime_versions=$(echo "$versions" | sed -n '/^WDDM2_0$/,$p')
for a in $archs; do
    triple=${a%%:*} define=${a##*:}
    for ver in $runtime_versions default; do
        spawn ok "runtime|$triple|c|$ver|runtime/src/*.c" "$triple" "$define" "$ver" c -fsyntax-only \
            -DPB_USE_GENERATED_VALIDATOR -I"$src/runtime/src" -I"$inc" \
            "$src"/runtime/src/*.c "$inc/ddi_dispatch.c"
    done
done
if [ "$first" != WDDM2_0 ]; then
    spawn "error:the paging runtime needs DXGKDDI_INTERFACE_VERSION >= DXGKDDI_INTERFACE_VERSION_WDDM2_0" \
        "runtime-refusal|x86_64|c|$first|runtime/src/pb_engine.c" x86_64 _AMD64_ "$first" c -fsyntax-only \
        -I"$src/runtime/src" -I"$inc" "$src/runtime/src/pb_engine.c"
fi

# --- one object per family, compiled for real ----------------------------
printf '#include <ntddk.h>\n#include <dispmprt.h>\n#include "ddi_layout_asserts.h"\nconst char *probe(void) { return ddi_layout_bitfield_failure(); }\n' >"$work/tu/asserts-obj.c"
spawn ok "object|i686|c|default|asserts" i686 _X86_ default c -c -O2 -I"$inc" "$work/tu/asserts-obj.c" -o "$work/asserts.o"
spawn ok "object|x86_64|c|default|validate" x86_64 _AMD64_ default c -c -O2 -I"$inc" "$inc/ddi_validate.c" -o "$work/validate.o"
spawn ok "object|aarch64|c|default|marshal" aarch64 _ARM64_ default c -c -O2 -I"$inc" "$inc/ddi_marshal.c" -o "$work/marshal.o"
spawn ok "object|i686|c|default|dispatch" i686 _X86_ default c -c -O2 -I"$inc" "$inc/ddi_dispatch.c" -o "$work/dispatch.o"
spawn ok "object|x86_64|c|default|skeleton" x86_64 _AMD64_ default c -c -O2 -DDDIGEN_VALIDATE -DDDIGEN_HAVE_VALIDATE -I"$inc" "$inc/ddi_skeleton.c" -o "$work/skeleton.o"
wait

# --- the report -----------------------------------------------------------
passed=0 failed=0
declare -A row_pass row_total
for r in "$work"/cells/*.result; do
    IFS='|' read -r fam triple lang ver file verdict <"$r"
    row="$fam|$triple|$lang"
    row_total[$row]=$(( ${row_total[$row]:-0} + 1 ))
    if [ "$verdict" = ok ]; then
        passed=$((passed + 1)); row_pass[$row]=$(( ${row_pass[$row]:-0} + 1 ))
    else
        failed=$((failed + 1)); echo "FAIL $name $fam $triple $lang $ver $file: $verdict"
    fi
done
echo "kit $name: $nversions DDI versions + the default; pages: $variants"
printf '%-20s %-9s %-8s %-4s %s\n' kit family arch lang "cells passed/compiled"
for row in $(printf '%s\n' "${!row_total[@]}" | sort); do
    IFS='|' read -r fam triple lang <<<"$row"
    printf '%-20s %-9s %-8s %-4s %s/%s\n' "$name" "$fam" "$triple" "$lang" "${row_pass[$row]:-0}" "${row_total[$row]}"
done
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
