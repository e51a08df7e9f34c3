#!/usr/bin/env bash
# Benchmark: `ddigen layout --wdk KIT` over its whole matrix (architectures x
# DDI versions) against the same matrix run as plain `clang -fsyntax-only`
# processes in series (clang_matrix.sh), in one run. Prints the ratio (issue
# 25 target <= 0.3), best of N runs for each side, wall and CPU time.
#   bench_layout.sh DDIGEN CLANG KIT [RUNS]
set -euo pipefail
ddigen=$1 clang=$2 kit=$3 runs=${4:-3}
here=$(cd "$(dirname "$0")" && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
# shellcheck source=bench/timing.sh
source "$here/../timing.sh"

"$ddigen" layout --wdk "$kit" -q -o "$work/spec.xml" # also warms the file cache
DDIGEN=$ddigen "$here/clang_matrix.sh" "$clang" "$kit" "$work/spec.xml" "$work" check
configs=$(wc -l <"$work/matrix")
cores=$(nproc)

time_best "$runs" "$ddigen" layout --wdk "$kit" -q -o "$work/spec.xml"; layout=$best
time_best "$runs" "$ddigen" layout --wdk "$kit" -q --no-pch -o "$work/spec.xml"; nopch=$best
time_best "$runs" "$ddigen" layout --wdk "$kit" -q -j 1 -o "$work/spec.xml"; one=$best
time_best "$runs" "$here/clang_matrix.sh" "$clang" "$kit" "$work/spec.xml" "$work" run 1; seq=$best
time_best "$runs" "$here/clang_matrix.sh" "$clang" "$kit" "$work/spec.xml" "$work" run "$cores"; par=$best

echo "layout matrix: $configs configurations of $kit, best of $runs runs, $cores cores, load $(cut -d' ' -f1-3 /proc/loadavg)"
echo "                                                wall ms   cpu ms"
row "clang -fsyntax-only, one process each, series" "$seq"
row "clang -fsyntax-only, $cores processes at once" "$par"
row "ddigen layout (PCH prefix, $cores threads)" "$layout"
row "ddigen layout --no-pch" "$nopch"
row "ddigen layout -j 1" "$one"
ratio "ddigen layout / clang matrix in series" "$layout" "$seq" 0.3
ratio "ddigen layout / clang matrix, $cores at once" "$layout" "$par" ""
