#!/usr/bin/env bash
# The CI recipe of docs/ci.md as plain shell, for CI systems other than
# GitHub Actions (and what the workflow there runs): build ddigen from a
# release, generate against the WDK the driver pins, fail when the committed
# generated code is stale, and write `ddigen lint` findings as SARIF.
# Installed with ddigen as PREFIX/bin/ddigen-ci.
#
#   ci-driver-check.sh [--ddigen-source DIR | --ddigen-prefix DIR] --committed DIR
#       [--config FILE] [--wdk DIR] [--docs DIR] [--outputs LIST] [--driver-kind K]
#       [--ddi-list FILE] [--ddi-version R] [--param NAME=VALUE]... [--work DIR]
#
#   --ddigen-source DIR  an unpacked ddigen release: built and installed into WORK/ddigen
#   --ddigen-prefix DIR  an installed ddigen instead (PREFIX/bin/ddigen; the default when
#                        this script is PREFIX/bin/ddigen-ci)
#   --committed DIR      the driver's committed generated code: DIR/include/ (and DIR/spec/ddi.xml,
#                        whose stable IDs are kept when present)
#   --config FILE        the driver's ddigen.yaml (default: ./ddigen.yaml when present); the
#                        options below override its keys
#   --wdk DIR            the pinned kit's Include/<version> folder (or `wdk:` in the config)
#   --docs DIR           DDI reference pages: enables lint (WORK/ddigen.sarif)
#   --outputs LIST       generated families (default: the config's, else asserts)
#   --driver-kind K, --ddi-list FILE, --ddi-version R, --param NAME=VALUE
#                        the skeleton's options, as `ddigen generate` takes them
# Exit status: 0 current, 3 committed code is stale (each file named, "missing"
# or "differs"), 1 any other failure. Extra cmake arguments: $DDIGEN_CMAKE_ARGS.
set -euo pipefail

usage() {
    sed -n '8,25p' "$0" >&2
    exit 1
}
src="" prefix="" committed="" config="" work=${TMPDIR:-/tmp}/ddigen-ci outputs=""
gen_opts=() # forwarded to generate, and repeated in the regeneration command
while [ $# -gt 0 ]; do
    [ $# -ge 2 ] || { echo "ci-driver-check: $1 needs a value" >&2; usage; }
    case "$1" in
    --ddigen-source) src=$2 ;;
    --ddigen-prefix) prefix=$2 ;;
    --committed) committed=$2 ;;
    --config) config=$2 ;;
    --work) work=$2 ;;
    --docs) gen_opts+=(--docs "$2") ;;
    --outputs) outputs=$2 ;;
    --wdk | --driver-kind | --ddi-list | --param) gen_opts+=("$1" "$2") ;;
    # The skeleton's range: generate's own --ddi-version picks parsed versions.
    --ddi-version) gen_opts+=(--param "ddi-version=$2") ;;
    *) echo "ci-driver-check: unknown argument $1" >&2; usage ;;
    esac
    shift 2
done
here=$(cd "$(dirname "$0")" && pwd)
if [ -z "$src" ] && [ -z "$prefix" ] && [ -x "$here/ddigen" ]; then
    prefix=$(dirname "$here") # installed as PREFIX/bin/ddigen-ci
fi
[ -n "$committed" ] && { [ -n "$src" ] || [ -n "$prefix" ]; } || usage
[ -z "$config" ] && [ -f ddigen.yaml ] && config=ddigen.yaml
config_opt=()
[ -n "$config" ] && config_opt=(--config "$config")
# Without a config the families are asserts, as they always were here.
[ -z "$outputs" ] && [ -z "$config" ] && outputs=asserts
[ -n "$outputs" ] && gen_opts+=(--outputs "$outputs")
mkdir -p "$work"

# 1. ddigen from a release: only the program and its data are needed.
if [ -n "$src" ]; then
    prefix=$work/ddigen
    # shellcheck disable=SC2086 # DDIGEN_CMAKE_ARGS is a list of arguments
    cmake -S "$src" -B "$work/ddigen-build" -DCMAKE_BUILD_TYPE=Release -DBUILD_TESTING=OFF ${DDIGEN_CMAKE_ARGS:-} >/dev/null
    cmake --build "$work/ddigen-build" --target ddigen -j"$(nproc)" >/dev/null
    cmake --install "$work/ddigen-build" --prefix "$prefix" >/dev/null
fi
ddigen=$prefix/bin/ddigen
echo "ci-driver-check: $("$ddigen" --version) from $prefix${config:+, options from $config}"

# 2. Generate against the pinned WDK (stable IDs kept from the committed
#    spec). The options the driver's code was generated with are stamped
#    into the fresh spec, so step 3 renders with them.
previous=()
[ -s "$committed/spec/ddi.xml" ] && previous=(--previous "$committed/spec/ddi.xml")
"$ddigen" generate "${config_opt[@]}" "${gen_opts[@]}" "${previous[@]}" -q -o "$work/generated" || exit 1

# 3. Stale committed code: what this ddigen generates from this WDK must be
#    byte-identical to what is committed; each file is named, missing or
#    differing.
status=0
"$ddigen" emit --no-config --spec "$work/generated/spec/ddi.xml" -o "$committed/include" --check \
    2>"$work/check.txt" || status=$?
cat "$work/check.txt" >&2
if [ $status -eq 3 ]; then
    echo "ci-driver-check: committed generated code is stale ($(grep -c 'stale: missing' "$work/check.txt") missing," \
        "$(grep -c 'stale: differs' "$work/check.txt") differing); regenerate with" >&2
    # The command that makes the committed folder what this run generated:
    # the same options, the committed spec's stable IDs, the pages.
    regen=(ddigen generate "${config_opt[@]}" "${gen_opts[@]}" --previous "$committed/spec/ddi.xml" -o "$committed")
    [ ${#previous[@]} -eq 0 ] && regen=(ddigen generate "${config_opt[@]}" "${gen_opts[@]}" -o "$committed")
    printf '  ' >&2
    printf '%q ' "${regen[@]}" >&2
    printf '\nand commit %s\n' "$committed" >&2
elif [ $status -ne 0 ]; then
    exit 1
fi

# 4. Docs vs headers findings as SARIF 2.1.0, for code scanning. Findings do
#    not fail the job here; `werror: true` in the config (or --werror) makes
#    generate fail on error-level ones. The pages come from --docs or the
#    config's docs: (the fresh spec has them merged either way).
if [ -s "$work/generated/spec/docs.xml" ]; then
    lint_status=0
    "$ddigen" lint "${config_opt[@]}" "$work/generated/spec/ddi.xml" --sarif "$work/ddigen.sarif" \
        -o "$work/lint.txt" || lint_status=$?
    [ $lint_status -le 1 ] || exit 1 # 1 means error-level findings, 2 a failure
    echo "ci-driver-check: lint findings in $work/ddigen.sarif ($(grep -c . "$work/lint.txt" || true) lines of text in $work/lint.txt)"
fi
[ $status -eq 0 ] && echo "ci-driver-check: committed generated code is current"
exit $status
