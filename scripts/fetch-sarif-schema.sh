#!/usr/bin/env bash
# Test data: the official SARIF 2.1.0 JSON schema, which the lint tests
# validate ddigen's SARIF against. It ships inside Microsoft's SARIF
# multitool package on the npm registry; nothing of it is committed.
#   fetch-sarif-schema.sh DEST.json      (does nothing if DEST exists)
set -euo pipefail
dest=$1
[ -s "$dest" ] && exit 0
package=@microsoft/sarif-multitool-linux@5.7.0
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
(cd "$tmp" && npm pack --silent "$package" >/dev/null)
tar -xzf "$tmp"/*.tgz -C "$tmp" package/sarif-2.1.0.json
grep -q '"title": "Static Analysis Results Format (SARIF) Version 2.1.0 JSON Schema"' "$tmp/package/sarif-2.1.0.json"
mkdir -p "$(dirname "$dest")"
mv "$tmp/package/sarif-2.1.0.json" "$dest"
echo "fetch-sarif-schema: $dest (from $package)"
