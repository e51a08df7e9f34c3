#!/usr/bin/env bash
# The specs of the two real kits with the real pages, IDs chained (14393
# generated with --previous 10240's spec), for the lint and diff tests that
# read them (a ctest fixture: generated once).
#   kit_specs.sh DDIGEN OLD_KIT NEW_KIT DOCS_DIR OUT   -> OUT/old, OUT/new
set -u
ddigen=$1 old=$2 new=$3 docs=$4 out=$5
for d in "$old" "$new" "$docs"; do
    [ -d "$d" ] || { echo "SKIP: no $d (../shared is absent): nothing generated"; exit 77; }
done
rm -rf "$out" && mkdir -p "$out"
"$ddigen" generate --wdk "$old" --docs "$docs" --outputs asserts -q -o "$out/old" || exit 1
"$ddigen" generate --wdk "$new" --docs "$docs" --previous "$out/old/spec/ddi.xml" --outputs asserts -q -o "$out/new"
