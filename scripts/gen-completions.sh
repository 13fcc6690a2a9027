#!/usr/bin/env bash
# Regenerates the shell completion scripts from the built binary's command tree.
set -euo pipefail
cd "$(dirname "$0")/.."
bin=${IDFLOW_BIN:-$(swift build --show-bin-path)/idflow}
[ -x "$bin" ] || swift build --product idflow >/dev/null
"$bin" --generate-completion-script bash > completions/idflow.bash
"$bin" --generate-completion-script zsh > completions/_idflow
"$bin" --generate-completion-script fish > completions/idflow.fish
