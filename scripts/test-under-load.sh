#!/usr/bin/env bash
# The whole suite while every core is kept busy: tests must judge time by the sandbox clock or an injected one,
# never by the wall clock or a stopwatch, so a loaded machine (a shared CI runner) cannot fail them.
# Uses stress-ng (Debian's stress-ng) when installed, else one busy shell loop per core. Exits with swift test's code.
set -euo pipefail
cd "$(dirname "$0")/.."

cores=$(nproc)
load_pids=()
stop_load() {
    for pid in "${load_pids[@]}"; do kill "$pid" 2>/dev/null || true; done
    wait 2>/dev/null || true
}
trap stop_load EXIT

swift build --build-tests
if command -v stress-ng >/dev/null; then
    stress-ng --cpu "$cores" --timeout 3600s --quiet &
    load_pids+=($!)
else
    for _ in $(seq "$cores"); do
        (while :; do :; done) &
        load_pids+=($!)
    done
fi
echo "test-under-load: $cores busy CPU workers ($(command -v stress-ng >/dev/null && echo stress-ng || echo shell loops))" >&2
started=$(date +%s)
status=0
swift test --skip-build "$@" || status=$?
echo "test-under-load: swift test exited $status after $(($(date +%s) - started)) s under load" >&2
exit "$status"
