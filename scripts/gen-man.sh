#!/usr/bin/env bash
# Regenerates man/idflow.1 from the command tree with swift-argument-parser's generate-manual plugin.
# The date is fixed so regenerating an unchanged tree changes nothing.
set -euo pipefail
cd "$(dirname "$0")/.."
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
swift package --allow-writing-to-directory "$out" generate-manual --configuration debug --date 2026-11-21 \
    --authors "idflow maintainers" --output-directory "$out" >/dev/null
cp "$out/idflow.1" man/idflow.1
