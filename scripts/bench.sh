#!/usr/bin/env bash
# Start-up, end-to-end, bulk-creation and sandbox figures for the README's performance section.
#   1. `idflow --version` (the static, stripped binary of scripts/build-release.sh, and the default dynamic
#      release build) against `curl --version` (start-up cost, nothing of NIO or the sandbox).
#   2. register → activate → set-password against a local `idflow sandbox`, wall time per chain.
#   3. Bulk creation of $BULK_USERS (2000) users at concurrency 8, each against a fresh sandbox:
#      `idflow register --batch`, a curl loop with `xargs -P 8`, Okta's Python SDK (`okta` from PyPI,
#      create_user under an asyncio semaphore of 8; skipped with SKIP_PYTHON=1), as users/s.
#   4. The sandbox: RSA-2048 signing bound (openssl speed: signs/s × cores ÷ 2, two signatures per token
#      response), refresh-grant throughput with wrk (8 connections, one refresh token reused within a long
#      grace period) as a fraction of it with p50/p99, resident memory before and after 50,000 token
#      responses, and the cost of user creation as the org grows (first vs last 1,000 of $FLAT_USERS, 100,000).
# Needs hyperfine, curl, jq, wrk, openssl (Debian: apt-get install -y hyperfine curl jq wrk openssl) and python3
# with venv for the SDK. Uses scripts/build-release.sh unless IDFLOW_BIN is set.
# BENCH_ONLY="startup bulk sandbox" runs some sections (startup, chain, bulk, sandbox, memory, growth); default all.
set -euo pipefail
only=" ${BENCH_ONLY:-startup chain bulk sandbox memory growth} "
want() { [[ $only == *" $1 "* ]]; }
cd "$(dirname "$0")/.."
for tool in hyperfine curl jq; do
    command -v "$tool" >/dev/null || { echo "bench.sh needs $tool (apt-get install -y $tool)" >&2; exit 1; }
done
work=$(mktemp -d)
trap 'kill "${sandbox_pid:-}" 2>/dev/null || true; rm -rf "$work"' EXIT
if [ -z "${IDFLOW_BIN:-}" ]; then
    # The default (dynamic) release build first: build-release.sh relinks the same product statically and
    # keeps its stripped copy under another name.
    swift build -c release --product idflow >&2
    cp "$(swift build -c release --show-bin-path)/idflow" "$work/idflow-dynamic"
    IDFLOW_BIN=$(scripts/build-release.sh)
fi
bin=$IDFLOW_BIN

export IDFLOW_STATE_DIR="$work/state" HOME="$work"
# A fresh sandbox for each measurement, so no run pays for another's users; `extra` are sandbox flags.
start_sandbox() {
    kill "${sandbox_pid:-}" 2>/dev/null || true
    wait "${sandbox_pid:-}" 2>/dev/null || true
    rm -f "$work/sandbox.json"
    "$bin" sandbox --port 0 "$@" > "$work/sandbox.json" &
    sandbox_pid=$!
    for _ in $(seq 200); do [ -s "$work/sandbox.json" ] && break; sleep 0.05; done
    org=$(jq -r .orgUrl "$work/sandbox.json")
    token=$(jq -r .apiToken "$work/sandbox.json")
    export OKTA_CLIENT_ORGURL=$org OKTA_CLIENT_TOKEN=$token
}

now() { date +%s.%N; }
rate() { awk -v n="$1" -v a="$2" -v b="$3" 'BEGIN { printf "%.1f", n / (b - a) }'; }

if want startup; then
# Baselines: the smallest Foundation program, and one that links URLSession (libcurl and its libraries),
# which every HTTP client on Foundation pays for at load time.
printf 'import Foundation\nprint(Date().timeIntervalSince1970 > 0 ? "0" : "")\n' > "$work/plain.swift"
printf 'import Foundation\n#if canImport(FoundationNetworking)\nimport FoundationNetworking\n#endif\n_ = URLSessionConfiguration.ephemeral\nprint("0")\n' > "$work/networking.swift"
swiftc -O "$work/plain.swift" -o "$work/foundation-plain" 2>/dev/null
swiftc -O "$work/networking.swift" -o "$work/foundation-urlsession" 2>/dev/null

echo "## start-up"
dynamic=()
[ -x "$work/idflow-dynamic" ] && dynamic=("$work/idflow-dynamic --version")
hyperfine --warmup 3 --runs 30 -N "$bin --version" "${dynamic[@]}" "curl --version" "$work/foundation-plain" \
    "$work/foundation-urlsession"
fi

if want chain; then
echo "## register → activate → set-password against a local sandbox"
start_sandbox
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
fi


# The sandbox without limits reports a real org's 600 requests a minute, and `register --batch` keeps to what
# the headers say; the bulk sandboxes advertise (and would enforce) a limit the load stays under, so every
# client runs at the speed the server allows rather than idflow alone being held to 600 a minute.
echo '{"rateLimits": {"users": 100000000}}' > "$work/bulk-config.json"

if want bulk; then
echo "## bulk creation: ${BULK_USERS:=2000} users at concurrency 8, users/s"
for i in $(seq "$BULK_USERS"); do
    printf '{"email":"bulk%d@example.com","firstName":"Bulk","lastName":"%d"}\n' "$i" "$i"
done > "$work/users.ndjson"

start_sandbox --config "$work/bulk-config.json"
t0=$(now)
"$bin" register --batch "$work/users.ndjson" --concurrency 8 > "$work/batch.ndjson" 2>/dev/null
t1=$(now)
failed=$(jq -s 'map(select(.ok | not)) | length' "$work/batch.ndjson")
echo "idflow register --batch: $(rate "$BULK_USERS" "$t0" "$t1") users/s ($failed failed)"

start_sandbox --config "$work/bulk-config.json"
t0=$(now)
seq "$BULK_USERS" | xargs -P 8 -I{} curl -sf -o /dev/null -X POST "$org/api/v1/users?activate=false" \
    -H "Authorization: SSWS $token" -H 'Content-Type: application/json' -H 'Accept: application/json' \
    -d '{"profile":{"email":"bulk{}@example.com","login":"bulk{}@example.com","firstName":"Bulk","lastName":"{}"}}'
t1=$(now)
echo "curl, xargs -P 8: $(rate "$BULK_USERS" "$t0" "$t1") users/s"

if [ "${SKIP_PYTHON:-0}" != 1 ]; then
    python3 -m venv "$work/venv" >&2
    "$work/venv/bin/pip" install --quiet okta >&2
    cat > "$work/okta_bulk.py" <<'PY'
import asyncio, os, sys, time
from okta.client import Client as OktaClient
from okta import models

async def main(count):
    # Plain http (the sandbox is loopback only) needs OKTA_TESTING_TESTINGDISABLEHTTPSCHECK=true in the
    # environment: the SDK reads its "testing" settings only from there or its YAML file.
    client = OktaClient({"orgUrl": os.environ["OKTA_CLIENT_ORGURL"], "token": os.environ["OKTA_CLIENT_TOKEN"]})
    semaphore = asyncio.Semaphore(8)
    failures = 0

    async def create(i):
        nonlocal failures
        profile = {"email": f"bulk{i}@example.com", "login": f"bulk{i}@example.com", "firstName": "Bulk", "lastName": str(i)}
        async with semaphore:
            try:  # okta 3.x: keyword arguments and from_dict models
                body = models.CreateUserRequest.from_dict({"profile": profile})
                result = await client.create_user(body, activate=False)
            except (TypeError, AttributeError):  # okta 2.x: a dict body and query parameters
                result = await client.create_user({"profile": profile}, {"activate": "false"})
        if result[-1] is not None:
            failures += 1

    started = time.monotonic()
    await asyncio.gather(*(create(i) for i in range(1, count + 1)))
    elapsed = time.monotonic() - started
    print(f"okta Python SDK, asyncio semaphore of 8: {count / elapsed:.1f} users/s ({failures} failed)")

asyncio.run(main(int(sys.argv[1])))
PY
    start_sandbox --config "$work/bulk-config.json"
    OKTA_TESTING_TESTINGDISABLEHTTPSCHECK=true "$work/venv/bin/python" "$work/okta_bulk.py" "$BULK_USERS"
fi
fi

if want sandbox || want memory; then
echo "## sandbox: token endpoint against the RSA-2048 signing bound"
cores=$(nproc)
signs=$(openssl speed -seconds 3 rsa2048 2>/dev/null | awk '/^rsa 2048/ { print $6 }')
bound=$(awk -v s="$signs" -v c="$cores" 'BEGIN { printf "%.0f", s * c / 2 }')
echo "openssl speed rsa2048: $signs signs/s per core, $cores cores: bound $bound token responses/s"

# A refresh token that stays usable when reused: a grace period longer than the run.
echo '{"refreshTokenGraceSeconds": 86400}' > "$work/sandbox-config.json"
start_sandbox --config "$work/sandbox-config.json"
export OKTA_OAUTH2_CLIENTID=$(jq -r .clientId "$work/sandbox.json") OKTA_OAUTH2_REDIRECTURI=$(jq -r .redirectUri "$work/sandbox.json")
issuer=$(jq -r .issuer "$work/sandbox.json")
uid=$("$bin" register --email wrk@example.com | jq -r .id)
export IDFLOW_ACTIVATION_TOKEN=$("$bin" activate --user "$uid" | jq -r .activationToken)
printf '%s' 'Str0ng-Passw0rd!' | "$bin" set-password --password-stdin >/dev/null
refresh=$(printf '%s' 'Str0ng-Passw0rd!' | "$bin" login-pkce --username wrk@example.com --password-stdin --no-store | jq -r .refresh_token)
cat > "$work/refresh.lua" <<LUA
wrk.method = "POST"
wrk.headers["Content-Type"] = "application/x-www-form-urlencoded"
wrk.body = "grant_type=refresh_token&client_id=$OKTA_OAUTH2_CLIENTID&refresh_token=$refresh"
-- With STOP_AFTER set, each thread stops after its share of responses (the memory measurement) and adds a
-- line to STOP_FILE: wrk itself runs out its -d duration even when every thread has stopped.
local limit = tonumber(os.getenv("STOP_AFTER") or "0")
local seen = 0
function response(status, headers, body)
    seen = seen + 1
    if limit > 0 and seen == limit then
        local f = io.open(os.getenv("STOP_FILE"), "a")
        f:write("stopped\n")
        f:close()
        wrk.thread:stop()
    end
end
LUA
if want sandbox; then
wrk -t 2 -c 8 -d 20s --latency -s "$work/refresh.lua" "$issuer/v1/token" > "$work/wrk.txt"
rps=$(awk '/^Requests\/sec/ { print $2 }' "$work/wrk.txt")
p50=$(awk '$1 == "50%" { print $2 }' "$work/wrk.txt")
p99=$(awk '$1 == "99%" { print $2 }' "$work/wrk.txt")
echo "refresh grant: $rps responses/s = $(awk -v r="$rps" -v b="$bound" 'BEGIN { printf "%.0f%%", 100 * r / b }') of the bound; p50 $p50, p99 $p99"
fi

if want memory; then
rss() { awk '/^VmRSS/ { print $2 " " $3 }' "/proc/$sandbox_pid/status"; }
before=$(rss)
: > "$work/stopped"
STOP_AFTER=25000 STOP_FILE="$work/stopped" wrk -t 2 -c 8 -d 10m -s "$work/refresh.lua" "$issuer/v1/token" > /dev/null &
wrk_pid=$!
while kill -0 "$wrk_pid" 2>/dev/null && [ "$(wc -l < "$work/stopped")" -lt 2 ]; do sleep 0.2; done
kill -INT "$wrk_pid" 2>/dev/null || true
wait "$wrk_pid" || true
echo "sandbox resident memory: $before before, $(rss) after 50,000 token responses"
fi
fi

if want growth; then
echo "## sandbox: user creation as the org grows (${FLAT_USERS:=100000} users)"
start_sandbox --config "$work/bulk-config.json"
unset OKTA_OAUTH2_CLIENTID OKTA_OAUTH2_REDIRECTURI
batch_of() {  # $1 first number, $2 count: creates them, prints users/s
    seq "$1" $(($1 + $2 - 1)) | awk '{ printf "{\"email\":\"grow%d@example.com\"}\n", $1 }' > "$work/grow.ndjson"
    local a b
    a=$(now)
    "$bin" register --batch "$work/grow.ndjson" --concurrency 8 > /dev/null 2>&1
    b=$(now)
    rate "$2" "$a" "$b"
}
first=$(batch_of 1 1000)
batch_of 1001 $((FLAT_USERS - 2000)) > /dev/null
last=$(batch_of $((FLAT_USERS - 999)) 1000)
echo "users 1–1,000: $first users/s; users $((FLAT_USERS - 999))–$FLAT_USERS: $last users/s"
fi
