#!/usr/bin/env bash
# lex_oracle.sh ORACLE SHARED FIXTURES: the SAL index's raw lexer against
# clang_tokenize on every header of the real kits in SHARED/wdk and of the
# fixture kits (every file an ingestion can lex). Skipped with a message
# (exit 77) when SHARED is absent.
set -euo pipefail
oracle=$1 shared=$2 fixtures=$3
if [ ! -d "$shared/wdk" ]; then
  echo "SKIP: $shared/wdk is absent (the real kits are read in place)"
  exit 77
fi
mapfile -d '' files < <(find "$shared/wdk" "$fixtures" -type f \( -name '*.h' -o -name '*.H' \) -print0 | sort -z)
[ "${#files[@]}" -gt 0 ] || { echo "no headers under $shared/wdk" >&2; exit 1; }
"$oracle" "${files[@]}"
