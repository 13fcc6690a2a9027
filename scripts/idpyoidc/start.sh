#!/usr/bin/env bash
# Starts idpyoidc (PyPI's `idpyoidc`, an independent OAuth 2.0 / OpenID provider library whose token endpoint
# implements RFC 8693 token exchange) on 127.0.0.1 for idflow's end-to-end tests, and prints one JSON line on stdout
# describing it. The server is scripts/idpyoidc/provider.py; its docstring says what it configures and why.
#
#   scripts/idpyoidc/start.sh [DIR]      start; DIR (default: a new temp directory) holds everything: keys, the client
#                                        secret, the subject token, the log, provider.json
#   scripts/idpyoidc/start.sh stop DIR   stop the server started in DIR
#
# IDPYOIDC_STOP_WITH_PID=PID: the server also stops once process PID has ended (a test run that crashed or was killed
# leaves no server behind).
#
# Secrets (the gateway client's secret, the subject token) are 0600 files named in the JSON, never on a command line.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
version=5.0.0

fail() {
    echo "scripts/idpyoidc/start.sh: $*" >&2
    exit 1
}

if [ "${1:-}" = stop ]; then
    dir=${2:?usage: start.sh stop DIR}
    [ -f "$dir/provider.json" ] || fail "no provider.json in $dir"
    dir=$(cd "$dir" && pwd)
    pid=$(sed -n 's/.*"pid": \([0-9]*\).*/\1/p' "$dir/provider.json")
    [ -n "$pid" ] || fail "no pid in $dir/provider.json"
    # Only the provider of this directory: a pid the system has since given to another program is left alone.
    if [ -r "/proc/$pid/cmdline" ] && ! tr '\0' ' ' <"/proc/$pid/cmdline" | grep -qF -- "provider.py $dir"; then
        exit 0
    fi
    kill "$pid" 2>/dev/null || exit 0
    for _ in $(seq 50); do
        kill -0 "$pid" 2>/dev/null || exit 0
        sleep 0.1
    done
    kill -9 "$pid" 2>/dev/null || true
    exit 0
fi

command -v python3 >/dev/null || fail "python3 is not installed (apt-get install python3)"
python3 -c 'import idpyoidc' 2>/dev/null || fail "idpyoidc is not installed (pip install idpyoidc==$version)"
installed=$(python3 -c 'import importlib.metadata as m; print(m.version("idpyoidc"))')
[ "$installed" = "$version" ] || echo "scripts/idpyoidc/start.sh: idpyoidc $installed, not the $version this was tried with" >&2

dir=${1:-$(mktemp -d "${TMPDIR:-/tmp}/idpyoidc.XXXXXX")}
mkdir -p "$dir"
chmod 700 "$dir"
dir=$(cd "$dir" && pwd)
umask 077
# A server left running in this directory by an earlier start is stopped first.
if [ -f "$dir/provider.json" ]; then
    "$0" stop "$dir"
    rm -f "$dir/provider.json"
fi

# The server outlives this script, in a session of its own and holding no descriptor of this script's but 0, 1 and 2
# (a caller that learns of this script's end from a descriptor it handed down would otherwise wait for the server);
# its output goes to a file.
(
    for fd in /proc/$BASHPID/fd/*; do
        fd=${fd##*/}
        [ "$fd" -gt 2 ] && { eval "exec $fd>&-"; } 2>/dev/null
    done
    exec setsid python3 "$here/provider.py" "$dir" "${IDPYOIDC_STOP_WITH_PID:-}"
) >"$dir/provider.out" 2>&1 </dev/null &
pid=$!

# provider.json appears once the server has bound its port (the kernel's choice) and configured everything.
for _ in $(seq 150); do
    [ -f "$dir/provider.json" ] && break
    kill -0 "$pid" 2>/dev/null || fail "the provider exited: $(tail -5 "$dir/provider.out")"
    sleep 0.1
done
[ -f "$dir/provider.json" ] || {
    kill "$pid" 2>/dev/null || true
    fail "the provider did not start within 15 seconds: $(tail -5 "$dir/provider.out")"
}
cat "$dir/provider.json"
echo
