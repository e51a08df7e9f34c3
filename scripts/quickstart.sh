#!/usr/bin/env bash
# Quick start, step 1: install dependencies, configure, build, and run the
# main job on the bundled fixtures (fixture WDK headers + fixture pages):
# spec, every generated family whose templates exist, lint summary; then
# says where each file went. Step 2 is `ctest --test-dir build --output-on-failure`.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh
werror=OFF
[ "${CI:-}" = true ] && werror=ON
cmake -S . -B build -DCMAKE_BUILD_TYPE=RelWithDebInfo -DDDIGEN_WERROR=$werror
cmake --build build -j"$(nproc)"
scripts/fetch-sarif-schema.sh build/_deps/sarif-2.1.0.json   # test data (npm registry)
release=tests/fixtures/wdk/10.0.26100.0
pages=tests/fixtures/docs
build/gen/ddigen generate --wdk "$release" --docs "$pages" -o out
echo "quickstart: from the headers in $release and the pages in $pages:"
describe() {
    case "$1" in
    out/spec/layout.xml) echo "layouts per architecture and DDI version (ddigen layout)" ;;
    out/spec/docs.xml) echo "the pages' fields and rules (ddigen docs)" ;;
    out/spec/ddi.xml) echo "the spec: layout + docs with stable IDs (input of emit, diff, lint)" ;;
    out/lint.txt) echo "where the pages and the headers disagree (ddigen lint)" ;;
    out/include/ddi_layout_asserts.h) echo "static layout assertions for x86/x64/arm64 (include after the WDK)" ;;
    out/include/*) echo "generated from templates/$(basename "$1").xsl" ;;
    *) echo "" ;;
    esac
}
find out -type f | sort | while read -r f; do printf '  %-36s %s\n' "$f" "$(describe "$f")"; done
