#!/usr/bin/env bash
# The CI recipe of docs/ci.md as plain shell, for CI systems other than
# GitHub Actions (and what the workflow there runs): build ddigen from a
# release, generate against the WDK the driver pins, fail when the committed
# generated code is stale, and write `ddigen lint` findings as SARIF.
#
#   scripts/ci-driver-check.sh (--ddigen-source DIR | --ddigen-prefix DIR)
#       --wdk DIR --committed DIR [--docs DIR] [--outputs LIST] [--work DIR]
#
#   --ddigen-source DIR  an unpacked ddigen release: built and installed into WORK/ddigen
#   --ddigen-prefix DIR  an installed ddigen instead (PREFIX/bin/ddigen)
#   --wdk DIR            the pinned kit's Include/<version> folder
#   --committed DIR      the driver's committed generated code: DIR/include/ (and DIR/spec/ddi.xml,
#                        whose stable IDs are kept when present)
#   --docs DIR           DDI reference pages: enables lint (WORK/ddigen.sarif)
#   --outputs LIST       generated families, default asserts
# Exit status: 0 current, 3 committed code is stale (the files are named),
# 1 any other failure. Extra cmake arguments for the build: $DDIGEN_CMAKE_ARGS.
set -euo pipefail

src='' prefix='' wdk='' committed='' docs='' outputs=asserts work=${TMPDIR:-/tmp}/ddigen-ci
while [ $# -gt 0 ]; do
    case "$1" in
    --ddigen-source) src=$2 ;;
    --ddigen-prefix) prefix=$2 ;;
    --wdk) wdk=$2 ;;
    --committed) committed=$2 ;;
    --docs) docs=$2 ;;
    --outputs) outputs=$2 ;;
    --work) work=$2 ;;
    *) echo "ci-driver-check: unknown argument $1" >&2; exit 1 ;;
    esac
    shift 2
done
if [ -z "$wdk" ] || [ -z "$committed" ] || { [ -z "$src" ] && [ -z "$prefix" ]; }; then
    sed -n '7,20p' "$0" >&2
    exit 1
fi
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
echo "ci-driver-check: $("$ddigen" --version) from $prefix"

# 2. Generate against the pinned WDK (stable IDs kept from the committed spec).
args=(generate --wdk "$wdk" --outputs "$outputs" -q -o "$work/generated")
[ -s "$committed/spec/ddi.xml" ] && args+=(--previous "$committed/spec/ddi.xml")
[ -n "$docs" ] && args+=(--docs "$docs")
"$ddigen" "${args[@]}"

# 3. Stale committed code: what this ddigen generates from this WDK must be
#    byte-identical to what is committed; each differing file is named.
status=0
"$ddigen" emit --spec "$work/generated/spec/ddi.xml" -o "$committed/include" --outputs "$outputs" --check || status=$?
if [ $status -eq 3 ]; then
    echo "ci-driver-check: committed generated code is stale; regenerate with" >&2
    echo "  ddigen generate --wdk $wdk --outputs $outputs -o <driver>/ddi   and commit the result" >&2
elif [ $status -ne 0 ]; then
    exit 1
fi

# 4. Docs vs headers findings as SARIF 2.1.0, for code scanning. Findings do
#    not fail the job here; add --werror to generate (step 2) to make them.
if [ -n "$docs" ]; then
    lint_status=0
    "$ddigen" lint "$work/generated/spec/ddi.xml" --sarif "$work/ddigen.sarif" -o "$work/lint.txt" || lint_status=$?
    [ $lint_status -le 1 ] || exit 1 # 1 means error-level findings, 2 a failure
    echo "ci-driver-check: lint findings in $work/ddigen.sarif ($(grep -c . "$work/lint.txt" || true) lines of text in $work/lint.txt)"
fi
[ $status -eq 0 ] && echo "ci-driver-check: committed generated code is current"
exit $status
