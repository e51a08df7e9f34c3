#!/usr/bin/env bash
# Installs what ddigen needs on Debian 12 (run as root or with sudo). Does
# nothing when everything is already there.
set -euo pipefail
packages=(
  build-essential cmake pkg-config git
  clang libclang-dev libclang-rt-14-dev llvm
  libxml2-dev libxml2-utils libxslt1-dev xsltproc
  libcmark-gfm-dev libcmark-gfm-extensions-dev cmark-gfm libyaml-dev
  libcmocka-dev libcbor-dev libprotobuf-c-dev protobuf-c-compiler nanopb libnanopb-dev
  python3 python3-jsonschema
  chromium   # tests/report: the report site in headless Chromium (DevTools over a pipe)
  gcc-aarch64-linux-gnu libc6-dev-arm64-cross qemu-user
)
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
# npm fetches test data (scripts/fetch-sarif-schema.sh). A machine that
# has Node.js from elsewhere keeps it: Debian's npm would conflict.
command -v npm >/dev/null || missing+=(npm)
if [ ${#missing[@]} -eq 0 ]; then
  echo "install-deps: all ${#packages[@]} packages present"
  exit 0
fi
echo "install-deps: installing ${missing[*]}"
sudo_cmd=()
[ "$(id -u)" -eq 0 ] || sudo_cmd=(sudo)
export DEBIAN_FRONTEND=noninteractive
"${sudo_cmd[@]}" apt-get update -qq
"${sudo_cmd[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}"
