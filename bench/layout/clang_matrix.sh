#!/usr/bin/env bash
# The baseline of the layout benchmarks: the configuration matrix `ddigen
# layout --wdk KIT` parses (architectures x DDI versions of SPEC.xml), each
# one a plain `clang -fsyntax-only` process with the translation unit, include
# folders and flags of gen/header/ingest.c and clang_args.c.
#   clang_matrix.sh CLANG KIT SPEC.xml WORKDIR check   # runs each once, 1 if one fails
#   clang_matrix.sh CLANG KIT SPEC.xml WORKDIR run [P] # the matrix, P processes at once
# WORKDIR keeps the overlay and translation unit between calls; the first
# call (check) writes them, with DDIGEN set to the ddigen to ask for the overlay.
set -euo pipefail
clang=$1 kit=$2 spec=$3 work=$4 mode=$5 parallel=${6:-1}

if [ "$mode" = check ]; then
    "${DDIGEN:?set DDIGEN for the check}" overlay --wdk "$kit" -o "$work/overlay.json"
    printf '#include <ntddk.h>\n#include <dispmprt.h>\n' >"$work/translation-unit.c"
    # ingest.c's --wdk include folders, those that exist, as absolute paths.
    : >"$work/includes"
    for part in km km/crt shared um ucrt; do
        if [ -d "$kit/$part" ]; then echo "-I$(cd "$kit/$part" && pwd -P)" >>"$work/includes"; fi
    done
    "$clang" -print-resource-dir >"$work/resource-dir"
    # The architectures and DDI versions the spec holds: ddigen's own matrix
    # (aliases of one value are one configuration).
    arches=$(grep -o '<arch name="[a-z0-9]*"' "$spec" | sed 's/.*"\(.*\)"/\1/' | awk '!seen[$0]++')
    versions=$(grep -o '<version name="[A-Za-z0-9_]*"' "$spec" | sed 's/.*"\(.*\)"/\1/')
    [ -n "$arches" ] || arches="x86 x64 arm64"
    : >"$work/matrix"
    for arch in $arches; do
        case $arch in
        x86) triple=i686-pc-windows-msvc macro=_X86_ ;;
        x64) triple=x86_64-pc-windows-msvc macro=_AMD64_ ;;
        arm64) triple=aarch64-pc-windows-msvc macro=_ARM64_ ;;
        *) echo "clang_matrix: unknown architecture $arch in $spec" >&2; exit 1 ;;
        esac
        for v in ${versions:-DEFAULT}; do echo "$triple $macro $v" >>"$work/matrix"; done
    done
fi

# One configuration: clang_args.c's flags in its order.
one_config() { # triple macro version
    local version_flag=()
    [ "$3" = DEFAULT ] || version_flag=("-DDXGKDDI_INTERFACE_VERSION=$3")
    # shellcheck disable=SC2046 # one include flag a line, no spaces in them
    "$clang" -fsyntax-only -x c -std=c11 -target "$1" -fms-extensions -fms-compatibility \
        -fms-compatibility-version=19.38 -nostdlibinc -ferror-limit=0 "-D$2" -D_KERNEL_MODE \
        -resource-dir "$(cat "$work/resource-dir")" -ivfsoverlay "$work/overlay.json" \
        $(cat "$work/includes") "${version_flag[@]}" "$work/translation-unit.c"
}

# The run fails only on errors ddigen does not accept by default either:
# the FIELD_OFFSET static_assert of dispmprt.h (known_errors.c).
only_known_errors() { # log
    ! grep ' error: ' "$1" | grep -v 'dispmprt.h:[0-9:]* error: static_assert expression is not an integral constant expression' | grep -q .
}

if [ "$mode" = check ]; then
    rc=0
    while read -r triple macro version; do
        if ! one_config "$triple" "$macro" "$version" >"$work/clang.log" 2>&1 && ! only_known_errors "$work/clang.log"; then
            echo "clang_matrix: plain clang failed for $triple $version:" >&2
            grep ' error: ' "$work/clang.log" | head -5 >&2
            rc=1
        fi
    done <"$work/matrix"
    exit $rc
fi

export -f one_config
export clang work
xargs -P "$parallel" -L 1 bash -c 'one_config "$@" >/dev/null 2>&1 || true' _ <"$work/matrix"
