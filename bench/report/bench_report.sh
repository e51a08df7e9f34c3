#!/usr/bin/env bash
# Benchmark: `ddigen report` on the real kits of ../shared/wdk with their
# pages (each spec generated first, the newer with --previous so IDs
# chain), against `ddigen validate` of the same spec in the same run (the
# load every command pays: parse and RELAX NG check). Prints wall and CPU
# (best of RUNS), the ratio to the baseline, pages and the largest page;
# for the newest kit also with --previous and --lint.
#   bench_report.sh DDIGEN SHARED_DIR [RUNS]
set -euo pipefail
ddigen=$1 shared=$2 runs=${3:-3}
. "$(dirname "$0")/../timing.sh"
[ -d "$shared/wdk" ] && [ -d "$shared/ddi-docs" ] || { echo "bench_report: no $shared/wdk or ddi-docs, nothing to time"; exit 0; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
previous=()
for kit in "$shared"/wdk/10.*; do
    name=$(basename "$kit")
    "$ddigen" generate --wdk "$kit" --docs "$shared/ddi-docs" "${previous[@]}" -q -o "$work/$name" 2>/dev/null
    spec=$work/$name/spec/ddi.xml
    time_best "$runs" "$ddigen" validate "$spec"
    base=$best
    time_best "$runs" "$ddigen" report "$spec" --docs-root "$shared" -o "$work/site-$name"
    site=$best
    pages=$(find "$work/site-$name" -name '*.html' | wc -l)
    largest=$(find "$work/site-$name" -name '*.html' -printf '%s %P\n' | sort -n | tail -1)
    awk -v k="$name" -v b="$base" -v s="$site" -v p="$pages" -v l="$largest" 'BEGIN {
        split(b, x, " "); split(s, y, " "); split(l, z, " ");
        printf "%s: report %.2f s wall, %.2f s CPU (validate %.2f s / %.2f s: x%.1f CPU); %d pages, largest %.2f MB (%s)\n",
               k, y[1] / 1000, y[2] / 1000, x[1] / 1000, x[2] / 1000, y[2] / x[2], p, z[1] / 1048576, z[2] }'
    if [ ${#previous[@]} -gt 0 ]; then
        "$ddigen" lint "$spec" --sarif "$work/$name.sarif" -o /dev/null >/dev/null 2>&1 || true
        time_best "$runs" "$ddigen" report "$spec" "${previous[@]}" --lint "$work/$name.sarif" --docs-root "$shared" \
            -o "$work/site-$name-full"
        awk -v k="$name" -v s="$best" 'BEGIN { split(s, y, " ");
            printf "%s with --previous and --lint: %.2f s wall, %.2f s CPU\n", k, y[1] / 1000, y[2] / 1000 }'
    fi
    previous=(--previous "$spec")
done
# ddigen history over the kits as they are (the pages read once, each kit's
# layout and spec made here, IDs chained), then over 10 kits: the real ones
# given again in turn (10240, 14393, 10240, ...; each a new kit to the chain).
kits=("$shared"/wdk/10.*)
ten=()
while [ ${#ten[@]} -lt 10 ]; do ten+=("${kits[@]}"); done
ten=("${ten[@]:0:10}")
for set in "${#kits[@]}" 10; do
    if [ "$set" = 10 ]; then args=("${ten[@]}"); else args=("${kits[@]}"); fi
    time_best 1 "$ddigen" history "${args[@]}" --docs "$shared/ddi-docs" -o "$work/history-$set"
    awk -v n="$set" -v s="$best" 'BEGIN { split(s, y, " ");
        printf "history over %d kits with the pages: %.1f s wall, %.1f s CPU\n", n, y[1] / 1000, y[2] / 1000 }'
done
