#!/usr/bin/env bash
# Start-up and end-to-end timings for the README's performance section.
#   1. `idflow --version` against `curl --version` (start-up cost of the binary, nothing of NIO or the sandbox).
#   2. register → activate → set-password against a local `idflow sandbox`, wall time per chain.
# Needs hyperfine and curl (Debian: apt-get install -y hyperfine curl jq). Builds release unless IDFLOW_BIN is set.
set -euo pipefail
cd "$(dirname "$0")/.."
for tool in hyperfine curl jq; do
    command -v "$tool" >/dev/null || { echo "bench.sh needs $tool (apt-get install -y $tool)" >&2; exit 1; }
done
if [ -z "${IDFLOW_BIN:-}" ]; then
    swift build -c release --product idflow >&2
    IDFLOW_BIN="$(swift build -c release --show-bin-path)/idflow"
fi
bin=$IDFLOW_BIN
work=$(mktemp -d)
trap 'kill "${sandbox_pid:-}" 2>/dev/null || true; rm -rf "$work"' EXIT

# Baselines: the smallest Foundation program, and one that links URLSession (libcurl and its libraries),
# which every HTTP client on Foundation pays for at load time.
printf 'import Foundation\nprint(Date().timeIntervalSince1970 > 0 ? "0" : "")\n' > "$work/plain.swift"
printf 'import Foundation\n#if canImport(FoundationNetworking)\nimport FoundationNetworking\n#endif\n_ = URLSessionConfiguration.ephemeral\nprint("0")\n' > "$work/networking.swift"
swiftc -O "$work/plain.swift" -o "$work/foundation-plain" 2>/dev/null
swiftc -O "$work/networking.swift" -o "$work/foundation-urlsession" 2>/dev/null

echo "## start-up"
hyperfine --warmup 3 --runs 30 -N "$bin --version" "curl --version" "$work/foundation-plain" "$work/foundation-urlsession"

echo "## register → activate → set-password against a local sandbox"
"$bin" sandbox --port 0 > "$work/sandbox.json" &
sandbox_pid=$!
for _ in $(seq 100); do [ -s "$work/sandbox.json" ] && break; sleep 0.05; done
export OKTA_CLIENT_ORGURL=$(jq -r .orgUrl "$work/sandbox.json") OKTA_CLIENT_TOKEN=$(jq -r .apiToken "$work/sandbox.json")
export IDFLOW_STATE_DIR="$work/state" HOME="$work"
cat > "$work/chain.sh" <<CHAIN
#!/usr/bin/env bash
set -euo pipefail
email="bench-\$RANDOM\$RANDOM@example.com"
uid=\$("$bin" register --email "\$email" | jq -r .id)
export IDFLOW_ACTIVATION_TOKEN=\$("$bin" activate --user "\$uid" | jq -r .activationToken)
printf '%s' 'Str0ng-Passw0rd!' | "$bin" set-password --password-stdin >/dev/null
CHAIN
chmod +x "$work/chain.sh"
hyperfine --warmup 2 --runs 20 -N "$work/chain.sh"
