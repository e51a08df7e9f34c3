#!/usr/bin/env bash
# The typed model over a real kit's spec with its pages: ddigen generates
# on the kit of ../shared/wdk with ../shared/ddi-docs, then model_load
# checks the model against the XML it read (enums and values, typedefs,
# function types, every <docs> rule, field numbers, spelled paths).
#   real_kit.sh DDIGEN MODEL_LOAD KIT_DIR DOCS_DIR WORK
set -u
ddigen=$1 model_load=$2 kit=$3 docs=$4 work=$5
if [ ! -d "$kit" ]; then
    echo "SKIP: no real WDK at $kit (../shared is absent)"
    exit 77
fi
rm -rf "$work" && mkdir -p "$work"
docs_arg=()
if [ -d "$docs" ]; then docs_arg=(--docs "$docs"); else echo "note: no DDI pages at $docs, generating without"; fi
"$ddigen" generate --wdk "$kit" "${docs_arg[@]}" -q -o "$work/gen" >"$work/generate.log" 2>&1 ||
    { cat "$work/generate.log"; echo "FAIL generate"; exit 1; }
exec "$model_load" "$work/gen/spec/ddi.xml"
