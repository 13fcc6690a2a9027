#!/usr/bin/env bash
# Fails when completions/ or man/ no longer match the command tree (run by CI; fix with the gen-*.sh scripts):
# a changed file, a page generated anew (untracked) or a page no longer generated (deleted) all count.
set -euo pipefail
cd "$(dirname "$0")/.."
# gen-man.sh fails when groff warns about a page; without groff that check could not run.
command -v groff >/dev/null || { echo "check-generated.sh needs groff (apt-get install groff-base)" >&2; exit 1; }
scripts/gen-completions.sh
scripts/gen-man.sh
changed=$(git status --porcelain --untracked-files=all -- completions man)
if [ -n "$changed" ]; then
    printf '%s\n' "$changed" >&2
    git diff -- completions man >&2
    echo "completions/ or man/ drifted from the command tree: run scripts/gen-completions.sh and scripts/gen-man.sh and commit" >&2
    exit 1
fi
