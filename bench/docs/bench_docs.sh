#!/bin/sh
# Times one `ddigen docs` process over all of DOCS against one
# `cmark-gfm -e table` process over the same .md files concatenated, in the
# same run (best of 3 each), and prints the ratio (target <= 1.76: the ratio
# when the docs stage was first resolved, which it must not exceed).
# usage: bench_docs.sh DOCS_DIR COMMAND...   (COMMAND: e.g. "ddigen docs")
set -eu
docs=$1; shift
[ -d "$docs" ] || { echo "bench_docs: SKIPPED, $docs not found"; exit 0; }
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
find "$docs" -name '*.md' | LC_ALL=C sort | xargs cat > "$tmp/all.md"
best() { # best wall time in seconds of 3 runs of "$@"
  b=""
  for i in 1 2 3; do
    s=$(date +%s.%N); "$@" > /dev/null 2>&1 || true; e=$(date +%s.%N)
    t=$(awk -v e="$e" -v s="$s" 'BEGIN { printf "%.6f", e - s }')
    if [ -z "$b" ] || awk -v t="$t" -v b="$b" 'BEGIN { exit !(t < b) }'; then b=$t; fi
  done
  echo "$b"
}
ours=$(best "$@" "$docs" -o "$tmp/docs.xml" -q)
base=$(best sh -c "cmark-gfm -e table < '$tmp/all.md'")
printf 'ddigen docs:          %.3f s (%s)\n' "$ours" "$docs"
printf 'cmark-gfm -e table:   %.3f s (%s bytes)\n' "$base" "$(wc -c < "$tmp/all.md")"
printf 'ratio: %.2f (target <= 1.76)\n' "$(awk -v o="$ours" -v b="$base" 'BEGIN { print o / b }')"
