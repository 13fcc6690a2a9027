#!/usr/bin/env bash
# Regenerates the shell completion scripts from the built binary's command tree.
set -euo pipefail
cd "$(dirname "$0")/.."
bin=${IDFLOW_BIN:-$(swift build --show-bin-path)/idflow}
[ -x "$bin" ] || swift build --product idflow >/dev/null
"$bin" completion bash > completions/idflow.bash
"$bin" completion zsh > completions/_idflow
"$bin" completion fish > completions/idflow.fish
