#!/usr/bin/env bash
# Benchmark: `ddigen diff` of the two fixture releases scaled up 4x and 16x
# (every record and enum copied under new names); time and peak memory per
# size, and time per record, which stays flat when the diff is linear.
#   bench_diff.sh DDIGEN SNAPSHOT_DIR
set -euo pipefail
ddigen=$1 snapshots=$2
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
here=$(dirname "$0")
for copies in 4 16; do
    for r in 10.0.22621.0 10.0.26100.0; do
        xsltproc --param copies "$copies" "$here/scale.xsl" "$snapshots/wdk-$r.layout.xml" >"$work/$r-$copies.xml"
    done
    records=$(grep -c '<record ' "$work/10.0.26100.0-$copies.xml")
    best=""
    for _ in 1 2 3; do
        out=$( { /usr/bin/time -f "%e %M" "$ddigen" diff "$work/10.0.22621.0-$copies.xml" \
            "$work/10.0.26100.0-$copies.xml" >/dev/null; } 2>&1 | tail -1) || true
        t=${out% *} kb=${out#* }
        if [ -z "$best" ] || awk -v a="$t" -v b="$best" 'BEGIN { exit !(a < b) }'; then best=$t mem=$kb; fi
    done
    size=$(stat -c %s "$work/10.0.26100.0-$copies.xml")
    awk -v c="$copies" -v n="$records" -v t="$best" -v m="$mem" -v s="$size" 'BEGIN {
        printf "x%-3d %6d records (%5.1f MB each): %.3f s, peak %d MB, %.2f us per record\n",
               c, n, s / 1048576, t, m / 1024, t * 1e6 / n }'
done
