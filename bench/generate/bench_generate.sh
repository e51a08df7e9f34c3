#!/usr/bin/env bash
# Benchmark: what `ddigen generate` costs beyond its libclang parse. In one
# run, on a real kit with its pages: `ddigen layout --wdk KIT` alone, `ddigen
# generate --wdk KIT --docs DOCS -o OUT` (every family), and the same
# configuration matrix as plain `clang -fsyntax-only` processes in series
# (../layout/clang_matrix.sh). Prints generate/layout (issue 25 target
# <= 1.3) and layout/clang matrix (target <= 0.3), best of RUNS runs, wall
# and CPU time, and the per-stage figures `generate -v` reports, if any.
#   bench_generate.sh DDIGEN CLANG SHARED_DIR [KIT] [RUNS]
# KIT defaults to SHARED_DIR/wdk/10.0.14393.0, the docs are SHARED_DIR/ddi-docs.
set -euo pipefail
ddigen=$1 clang=$2 shared=$3 kit=${4:-$3/wdk/10.0.14393.0} runs=${5:-3}
docs=$shared/ddi-docs
if [ ! -d "$kit/km" ] || [ ! -d "$docs" ]; then
    echo "bench_generate: SKIPPED, needs a real kit and pages: $kit, $docs (../shared beside the source tree)"
    exit 0
fi
here=$(cd "$(dirname "$0")" && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
# shellcheck source=bench/timing.sh
source "$here/../timing.sh"

# Once, checked: every command works (a failing run would measure nothing).
"$ddigen" layout --wdk "$kit" -q -o "$work/spec.xml"
"$ddigen" generate --wdk "$kit" --docs "$docs" -o "$work/out" -v >"$work/generate.log" 2>&1 ||
    { echo "bench_generate: ddigen generate failed:"; tail -20 "$work/generate.log"; exit 1; }
DDIGEN=$ddigen "$here/../layout/clang_matrix.sh" "$clang" "$kit" "$work/spec.xml" "$work" check
configs=$(wc -l <"$work/matrix")

# Rounds of the three commands, one after the other, best of each: the
# machine's speed drifts over a minute (a shared VM), which blocks of one
# command each turned into a drift of the ratios.
layout="" generate="" matrix=""
for _ in $(seq "$runs"); do
    time_best 1 "$ddigen" layout --wdk "$kit" -q -o "$work/spec.xml"; layout=$(lower_of "$layout" "$best")
    time_best 1 "$ddigen" generate --wdk "$kit" --docs "$docs" -q -o "$work/out"; generate=$(lower_of "$generate" "$best")
    time_best 1 "$here/../layout/clang_matrix.sh" "$clang" "$kit" "$work/spec.xml" "$work" run 1
    matrix=$(lower_of "$matrix" "$best")
done

echo "generate vs layout vs clang: $kit ($configs configurations), $docs"
echo "  best of $runs interleaved rounds, $(nproc) cores, load $(cut -d' ' -f1-3 /proc/loadavg), $(date -u +%F)"
echo "                                                wall ms   cpu ms"
row "ddigen generate (all families, with docs)" "$generate"
row "ddigen layout" "$layout"
row "clang -fsyntax-only matrix, in series" "$matrix"
ratio "generate / layout" "$generate" "$layout" 1.3
ratio "layout / clang matrix" "$layout" "$matrix" 0.3
# Stage timings, when `generate -v` prints them (lines with a duration).
if grep -Eq '[0-9] ?(ms|s)\b' "$work/generate.log"; then
    echo "per-stage figures from generate -v (first run, not best-of):"
    grep -E '[0-9] ?(ms|s)\b' "$work/generate.log" | sed 's/^/  /'
fi
