#!/usr/bin/env bash
# Quick start, step 1: install dependencies, configure, build, and run the
# main job on the bundled fixture WDK (writes the spec and the generated
# headers to out/). Step 2 is `ctest --test-dir build --output-on-failure`.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh
werror=OFF
[ "${CI:-}" = true ] && werror=ON
cmake -S . -B build -DCMAKE_BUILD_TYPE=RelWithDebInfo -DDDIGEN_WERROR=$werror
cmake --build build -j"$(nproc)"
scripts/fetch-sarif-schema.sh build/_deps/sarif-2.1.0.json   # test data (npm registry)
release=tests/fixtures/wdk/10.0.26100.0
build/gen/ddigen generate --wdk "$release" -o out
echo "quickstart: wrote out/spec/ddi.xml and out/include/ from $release"
