#!/usr/bin/env bash
# Regenerates man/idflow.1 from the command tree with swift-argument-parser's generate-manual plugin.
# The date is fixed so regenerating an unchanged tree changes nothing. scripts/man-sections.awk adds the
# sections the generator cannot (CONFIGURATION from man/configuration.mdoc, which ManualConfigurationSectionTests
# renders from the settings' declaration; ENVIRONMENT, FILES, EXIT STATUS, EXAMPLES from man/sections.mdoc) and turns
# discussions' blank lines and examples into mdoc; groff must render the result without a warning.
set -euo pipefail
cd "$(dirname "$0")/.."
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
swift package --allow-writing-to-directory "$out" generate-manual --configuration debug --date 2026-11-21 \
    --authors "idflow maintainers" --output-directory "$out" >/dev/null
cat man/configuration.mdoc man/sections.mdoc > "$out/sections.mdoc"
awk -v sections="$out/sections.mdoc" -f scripts/man-sections.awk "$out/idflow.1" > "$out/idflow.full.1"
if command -v groff >/dev/null; then
    warnings=$(groff -ww -z -mandoc -Tutf8 "$out/idflow.full.1" 2>&1)
    if [ -n "$warnings" ]; then
        printf '%s\n' "$warnings" >&2
        echo "man/idflow.1: groff warns about the generated page (see above)" >&2
        exit 1
    fi
else
    echo "gen-man.sh: groff is not installed; the page was not checked for warnings" >&2
fi
cp "$out/idflow.full.1" man/idflow.1
