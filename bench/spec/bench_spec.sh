#!/bin/sh
# Time and peak memory of `ddigen spec` (and `ddigen lint` on its output) on
# the WDK 10.0.26100.0 fixture layout with the seed pages (../shared/seeds,
# else the lint fixtures), scaled up x8 and x32; the baseline, measured in
# the same run, is `ddigen validate` of the same scaled layout + docs (read
# and schema-check only). Prints the ratios and the growth from x8 to x32
# (4.0 = linear).
# usage: bench_spec.sh DDIGEN SOURCE_DIR
set -eu
ddigen=$1 src=$2
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
docs_in=$src/../shared/seeds
[ -d "$docs_in" ] || docs_in=$src/tests/fixtures/lint
"$ddigen" docs "$docs_in" -q -o "$tmp/docs.xml"
measure() { # prints "seconds peak_kib" of the best of 3 runs of "$@"
    best=""; mem=""
    for i in 1 2 3; do
        /usr/bin/time -f '%e %M' -o "$tmp/t" "$@" >/dev/null 2>&1 || true
        read -r t m <<EOT
$(tail -n 1 "$tmp/t")
EOT
        if [ -z "$best" ] || awk -v t="$t" -v b="$best" 'BEGIN { exit !(t < b) }'; then best=$t; mem=$m; fi
    done
    echo "$best $mem"
}
for k in 8 32; do
    python3 "$src/bench/spec/scale.py" "$src/spec/snapshots/wdk-10.0.26100.0.layout.xml" "$tmp/docs.xml" "$k" \
        "$tmp/layout$k.xml" "$tmp/docs$k.xml"
    records=$(grep -c '<record ' "$tmp/layout$k.xml"); fields=$(grep -c '<field ' "$tmp/layout$k.xml")
    pages=$(grep -c '<page ' "$tmp/docs$k.xml"); bytes=$(cat "$tmp/layout$k.xml" "$tmp/docs$k.xml" | wc -c)
    set -- $(measure "$ddigen" validate "$tmp/layout$k.xml" "$tmp/docs$k.xml"); base_t=$1 base_m=$2
    set -- $(measure "$ddigen" spec -q --layout "$tmp/layout$k.xml" --docs "$tmp/docs$k.xml" \
             -o "$tmp/spec$k.xml"); spec_t=$1 spec_m=$2
    [ -s "$tmp/spec$k.xml" ] || { echo "bench_spec: ddigen spec failed on x$k"; exit 1; }
    set -- $(measure "$ddigen" lint "$tmp/spec$k.xml" -o /dev/null); lint_t=$1 lint_m=$2
    printf 'x%-3s %7s records %7s fields %5s pages %5s MB in | validate %6.2f s %7s KiB | spec %6.2f s %7s KiB (%.1fx time, %.1fx memory) | lint %6.2f s %7s KiB\n' \
        "$k" "$records" "$fields" "$pages" "$(awk -v b="$bytes" 'BEGIN { printf "%.1f", b / 1048576 }')" \
        "$base_t" "$base_m" "$spec_t" "$spec_m" \
        "$(awk -v a="$spec_t" -v b="$base_t" 'BEGIN { print (b > 0 ? a / b : 0) }')" \
        "$(awk -v a="$spec_m" -v b="$base_m" 'BEGIN { print (b > 0 ? a / b : 0) }')" "$lint_t" "$lint_m"
    eval "spec_t_$k=$spec_t"
done
printf 'spec time growth x8 -> x32: %.2f (4.00 = linear)\n' "$(awk -v a="$spec_t_32" -v b="$spec_t_8" 'BEGIN { print (b > 0 ? a / b : 0) }')"
