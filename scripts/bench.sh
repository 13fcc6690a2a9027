#!/usr/bin/env bash
# Start-up, end-to-end, bulk-creation and sandbox figures for the README's performance section.
#   1. `idflow --version` (the static, stripped binary of scripts/build-release.sh, and the default dynamic
#      release build) against `curl --version` (start-up cost, nothing of NIO or the sandbox), as × curl; and
#      `idflow token inspect --offline` of a fixed JWT, a command that runs (the concurrency runtime, its
#      options parsed, JSON out) without a server.
#   2. register → activate → set-password against a local `idflow sandbox`, wall time per chain.
#   3. Bulk creation of $BULK_USERS (2000) users at concurrency 8, each against a fresh default sandbox:
#      `idflow register --batch`, a curl loop with `xargs -P 8`, Okta's Python SDK (`okta` from PyPI,
#      create_user under an asyncio semaphore of 8; skipped with SKIP_PYTHON=1), as users/s and client CPU per
#      user (user + system time ÷ users, start-up excluded by subtracting a one-user run); wrk on the same
#      endpoint for $BULK_WRK_DURATION (10s) as the sandbox's limit; the issue's ratios and the load average.
#   4. The sandbox: RSA-2048 signing bound (signs/s × cores ÷ 2, two signatures per token response), from the
#      sandbox's own signing code (Benchmarks/SigningSpeed, built in .build-bench/: swift-crypto, and whole JWTs
#      through jwt-kit) and from openssl speed (on a CPU with AVX-512 IFMA also without it),
#      refresh-grant throughput with wrk (8 connections, $WRK_DURATION (20s), one refresh token reused within a
#      long grace period) as a fraction of the bound with p50/p99 and the sandbox's CPU use; resident memory
#      before, after $MEMORY_RESPONSES (50,000) and twice that many token responses, with the token records the
#      sandbox holds, and after moving the sandbox clock past every token's expiry and as many responses again
#      (flat there = memory is reused, not leaked); the cost of user creation as the org grows (first vs last
#      1,000 of $FLAT_USERS, 100,000).
# Ends with a markdown block for the README's performance section, from the sections that ran.
# Needs hyperfine, curl, jq, wrk, GNU time, openssl (Debian: apt-get install -y hyperfine curl jq wrk time openssl) and python3
# with venv for the SDK. Uses scripts/build-release.sh unless IDFLOW_BIN is set (IDFLOW_DYNAMIC_BIN then names
# a dynamic build for the start-up comparison).
# BENCH_ONLY="startup bulk sandbox" runs some sections (startup, chain, bulk, sandbox, memory, growth); default all.
# Shorter runs for checking the script: BULK_USERS=200 BULK_WRK_DURATION=3s FLAT_USERS=3000 WRK_DURATION=5s MEMORY_RESPONSES=5000
# STARTUP_RUNS=10 CHAIN_RUNS=5 SKIP_PYTHON=1.
set -euo pipefail
only=" ${BENCH_ONLY:-startup chain bulk sandbox memory growth} "
want() { [[ $only == *" $1 "* ]]; }
: "${BULK_USERS:=2000}" "${FLAT_USERS:=100000}" "${WRK_DURATION:=20s}" "${MEMORY_RESPONSES:=50000}"
: "${STARTUP_RUNS:=30}" "${CHAIN_RUNS:=20}"
cd "$(dirname "$0")/.."
for tool in hyperfine curl jq; do
    command -v "$tool" >/dev/null || { echo "bench.sh needs $tool (apt-get install -y $tool)" >&2; exit 1; }
done
work=$(mktemp -d)
trap 'kill "${sandbox_pid:-}" 2>/dev/null || true; rm -rf "$work"' EXIT
dynamic_bin=${IDFLOW_DYNAMIC_BIN:-}
if [ -z "${IDFLOW_BIN:-}" ]; then
    # The default (dynamic) release build first: build-release.sh relinks the same product statically and
    # keeps its stripped copy under another name.
    swift build -c release --product idflow >&2
    cp "$(swift build -c release --show-bin-path)/idflow" "$work/idflow-dynamic"
    dynamic_bin=$work/idflow-dynamic
    IDFLOW_BIN=$(scripts/build-release.sh)
fi
bin=$IDFLOW_BIN
commit=$(git rev-parse --short HEAD 2>/dev/null || echo unknown)
cpu=$(awk -F': ' '/^model name/ { print $2; exit }' /proc/cpuinfo 2>/dev/null || uname -m)

export IDFLOW_STATE_DIR="$work/state" HOME="$work"
# A fresh sandbox for each measurement, so no run pays for another's users; arguments are sandbox flags.
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
# hyperfine's JSON → "mean ms ± stddev" and the mean in seconds, by command.
hf_mean() { jq -r --arg c "$2" '.results[] | select(.command == $c) | .mean' "$1"; }
hf_cell() { jq -r --arg c "$2" '.results[] | select(.command == $c) | "\(.mean * 1000 * 10 | round / 10) ms ± \(.stddev * 1000 * 10 | round / 10)"' "$1"; }
times_of() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.1f×", a / b }'; }
kb() { awk '/^VmRSS/ { print $2 }' "/proc/$sandbox_pid/status"; }
thousands() { sed -e ':a' -e 's/^\([0-9]\{1,\}\)\([0-9]\{3\}\)/\1,\2/; ta' <<< "$1"; }

md=()  # the README block, line by line

if want startup; then
# Baselines: the smallest Foundation program, and one that links URLSession (libcurl and its libraries),
# which every HTTP client on Foundation pays for at load time.
printf 'import Foundation\nprint(Date().timeIntervalSince1970 > 0 ? "0" : "")\n' > "$work/plain.swift"
printf 'import Foundation\n#if canImport(FoundationNetworking)\nimport FoundationNetworking\n#endif\n_ = URLSessionConfiguration.ephemeral\nprint("0")\n' > "$work/networking.swift"
swiftc -O "$work/plain.swift" -o "$work/foundation-plain" 2>/dev/null
swiftc -O "$work/networking.swift" -o "$work/foundation-urlsession" 2>/dev/null
# The same, linked as build-release.sh links idflow (the Swift runtime and Foundation inside): the floor for a
# static Swift program with an HTTP client.
static_networking=()
if [ "$(uname -s)" = Linux ]; then
    swiftc -O -static-stdlib "$work/networking.swift" -o "$work/foundation-urlsession-static" 2>/dev/null
    static_networking=("$work/foundation-urlsession-static")
fi

echo "## start-up"
# An unsigned JWT, so the command has a token to decode without a server (the warning about a token on the
# command line goes to stderr, which hyperfine discards).
b64url() { base64 -w0 | tr '+/' '-_' | tr -d '='; }
jwt="$(printf '{"alg":"none"}' | b64url).$(printf '{"sub":"bench","iat":1700000000,"exp":4102444800}' | b64url)."
inspect="$bin token inspect --offline $jwt"
commands=("$bin --version" "$inspect")
[ -n "$dynamic_bin" ] && commands+=("$dynamic_bin --version")
commands+=("curl --version" "$work/foundation-plain" "$work/foundation-urlsession" "${static_networking[@]}")
hyperfine --warmup 3 --runs "$STARTUP_RUNS" -N --export-json "$work/startup.json" "${commands[@]}"
curl_mean=$(hf_mean "$work/startup.json" "curl --version")
static_mean=$(hf_mean "$work/startup.json" "$bin --version")
echo "idflow static, stripped: $(times_of "$static_mean" "$curl_mean") curl's start-up"
rows=("\`idflow --version\` (static, stripped: \`scripts/build-release.sh\`)|$bin --version"
    "\`idflow token inspect --offline JWT\` (the same binary; a command that runs, no server)|$inspect")
if [ -n "$dynamic_bin" ]; then
    dynamic_mean=$(hf_mean "$work/startup.json" "$dynamic_bin --version")
    echo "idflow default dynamic release build: $(times_of "$dynamic_mean" "$curl_mean") curl's start-up"
    rows+=("\`idflow --version\` (default dynamic release build)|$dynamic_bin --version")
else
    echo "(no dynamic build measured: IDFLOW_BIN was set without IDFLOW_DYNAMIC_BIN)"
fi
rows+=("\`curl --version\`|curl --version" "smallest Foundation program|$work/foundation-plain"
    "Foundation program that links URLSession|$work/foundation-urlsession")
[ ${#static_networking[@]} -gt 0 ] && rows+=("the same, linked statically (\`-static-stdlib\`, as \`scripts/build-release.sh\` links idflow)|${static_networking[0]}")
md+=("" "| start-up (hyperfine, $STARTUP_RUNS runs) | mean | × curl |" "|---|---|---|")
for row in "${rows[@]}"; do
    label=${row%%|*} command=${row#*|}
    md+=("| $label | $(hf_cell "$work/startup.json" "$command") | $(times_of "$(hf_mean "$work/startup.json" "$command")" "$curl_mean") |")
done
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
hyperfine --warmup 2 --runs "$CHAIN_RUNS" -N --export-json "$work/chain.json" "$work/chain.sh"
want startup || md+=("" "| end to end (hyperfine, $CHAIN_RUNS runs) | mean |" "|---|---|")
want startup && md+=("| register → activate → set-password against a local sandbox (three \`idflow\` runs, \`jq\`, a bash script; $CHAIN_RUNS runs) | $(hf_cell "$work/chain.json" "$work/chain.sh") | |")
want startup || md+=("| register → activate → set-password against a local sandbox (three \`idflow\` runs, \`jq\`, a bash script) | $(hf_cell "$work/chain.json" "$work/chain.sh") |")
fi

# Every bulk run uses a default sandbox: without configured limits it reports a limit no load reaches, so
# `register --batch`, which paces itself by the headers, runs at the speed the server allows, as the others do.
# Each client gets a fresh sandbox and is measured twice on it: one user first, then $BULK_USERS; client CPU per
# user is (CPU of the big run - CPU of the one-user run) ÷ (users - 1), user + system time of the client process
# and its children (GNU time), so start-up (loading Swift's runtime, a curl process's set-up) is excluded; the
# SDK script measures its own batch (time.process_time, after its imports and client set-up). users/s is
# the batch alone: idflow's own --summary-json elapsed time, the SDK script's clock around its gather, the curl
# loop's wall time. wrk on the same endpoint (unique logins from a Lua script) gives the sandbox's own limit.
if want bulk; then
command -v wrk >/dev/null || { echo "bench.sh's bulk section needs wrk (apt-get install -y wrk)" >&2; exit 1; }
[ -x /usr/bin/time ] || { echo "bench.sh's bulk section needs GNU time (apt-get install -y time)" >&2; exit 1; }
: "${BULK_WRK_DURATION:=10s}"
bulk_load_before=$(cut -d' ' -f1-3 /proc/loadavg)
echo "## bulk creation: $BULK_USERS users at concurrency 8 (load average before: $bulk_load_before)"
users_file() {  # $1 e-mail prefix, $2 count
    for i in $(seq "$2"); do
        printf '{"email":"%s%d@example.com","firstName":"Bulk","lastName":"%d"}\n' "$1" "$i" "$i"
    done
}
users_file bulk "$BULK_USERS" > "$work/users.ndjson"
users_file one 1 > "$work/one.ndjson"
# Runs a command with stdout to $1 and stderr to $work/stderr.txt; sets used (user + system seconds of it and
# the children it waited for) and wall (seconds).
measure() {
    local out=$1 a b
    shift
    a=$(now)
    /usr/bin/time -f '%U %S' -o "$work/time.txt" "$@" > "$out" 2> "$work/stderr.txt" || true
    b=$(now)
    wall=$(awk -v a="$a" -v b="$b" 'BEGIN { print b - a }')
    used=$(tail -n 1 "$work/time.txt" | awk '{ print $1 + $2 }')
}
per_user_ms() { awk -v big="$1" -v one="$2" -v n="$BULK_USERS" 'BEGIN { printf "%.3f", 1000 * (big - one) / (n - 1) }'; }
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { if (b > 0) printf "%.2f", a / b; else print "?" }'; }
md+=("" "| bulk creation of $(thousands "$BULK_USERS") users at concurrency 8, each client against a fresh sandbox | users/s | client CPU per user (user + system, start-up excluded) |" "|---|---|---|")

start_sandbox
measure /dev/null "$bin" register --batch "$work/one.ndjson" --concurrency 8
idflow_cpu1=$used
measure "$work/batch.ndjson" "$bin" register --batch "$work/users.ndjson" --concurrency 8 --summary-json
idflow_elapsed=$(tail -n 1 "$work/stderr.txt" | jq -r '.summary.elapsedSeconds // empty')
idflow_rate=$(rate "$BULK_USERS" 0 "${idflow_elapsed:-$wall}")
idflow_cpu=$(per_user_ms "$used" "$idflow_cpu1")
failed=$(jq -s 'map(select(.ok | not)) | length' "$work/batch.ndjson")
echo "idflow register --batch: $idflow_rate users/s, $idflow_cpu ms CPU per user ($failed failed)"
md+=("| \`idflow register --batch --concurrency 8\` ($failed failed) | $idflow_rate | $idflow_cpu ms |")

# The same batch in PrivateKey mode with DPoP (issue 20's goal: at least 0.8 of the SSWS rate): a service app that
# requires DPoP, as Okta's "Require DPoP header in token requests" does (the sandbox's default app does not, so its
# token would be Bearer, which idflow refuses with --dpop in a script), no API token; the one-user run gets the
# token (and its nonce) and caches it, as a runbook would.
openssl genpkey -algorithm RSA -pkeyopt rsa_keygen_bits:2048 -out "$work/service-app.pem" 2>/dev/null
chmod 600 "$work/service-app.pem"
jq -n --arg pub "$(openssl pkey -in "$work/service-app.pem" -pubout)" \
    '{serviceApps: [{clientId: "0oabenchdpop00000000", publicKey: $pub, scopes: ["okta.users.read", "okta.users.manage"], requireDPoP: true}]}' \
    > "$work/dpop-config.json"
start_sandbox --config "$work/dpop-config.json"
pk_env=(env -u OKTA_CLIENT_TOKEN OKTA_CLIENT_AUTHORIZATIONMODE=PrivateKey OKTA_CLIENT_DPOPENABLED=true
    OKTA_CLIENT_CLIENTID=0oabenchdpop00000000 "OKTA_CLIENT_PRIVATEKEY=$work/service-app.pem")
rm -rf "$work/state/profiles/default/service-apps"
measure /dev/null "${pk_env[@]}" "$bin" register --batch "$work/one.ndjson" --concurrency 8
dpop_cpu1=$used
measure "$work/batch-dpop.ndjson" "${pk_env[@]}" "$bin" register --batch "$work/users.ndjson" --concurrency 8 --summary-json
dpop_elapsed=$(tail -n 1 "$work/stderr.txt" | jq -r '.summary.elapsedSeconds // empty')
dpop_rate=$(rate "$BULK_USERS" 0 "${dpop_elapsed:-$wall}")
dpop_cpu=$(per_user_ms "$used" "$dpop_cpu1")
dpop_failed=$(jq -s 'map(select(.ok | not)) | length' "$work/batch-dpop.ndjson")
echo "idflow register --batch, PrivateKey + DPoP: $dpop_rate users/s, $dpop_cpu ms CPU per user ($dpop_failed failed), $(ratio "$dpop_rate" "$idflow_rate") of SSWS (goal ≥ 0.8)"
md+=("| \`idflow register --batch --concurrency 8\` as a service app with DPoP, a proof per user ($dpop_failed failed; $(ratio "$dpop_rate" "$idflow_rate") of SSWS, goal ≥ 0.8) | $dpop_rate | $dpop_cpu ms |")

start_sandbox
measure /dev/null curl -sf -o /dev/null -X POST "$org/api/v1/users?activate=false" \
    -H "Authorization: SSWS $token" -H 'Content-Type: application/json' -H 'Accept: application/json' \
    -d '{"profile":{"email":"one1@example.com","login":"one1@example.com","firstName":"Bulk","lastName":"1"}}'
curl_cpu1=$used
measure /dev/null xargs -P 8 -I{} curl -sf -o /dev/null -X POST "$org/api/v1/users?activate=false" \
    -H "Authorization: SSWS $token" -H 'Content-Type: application/json' -H 'Accept: application/json' \
    -d '{"profile":{"email":"bulk{}@example.com","login":"bulk{}@example.com","firstName":"Bulk","lastName":"{}"}}' < <(seq "$BULK_USERS")
curl_rate=$(rate "$BULK_USERS" 0 "$wall")
curl_cpu=$(per_user_ms "$used" "$curl_cpu1")
echo "curl loop, xargs -P 8: $curl_rate users/s, $curl_cpu ms CPU per user (one curl process per user, its start-up included)"
md+=("| curl loop, \`xargs -P 8\` (one curl process per user: its start-up is part of each user's cost) | $curl_rate | $curl_cpu ms |")

sdk_rate= sdk_cpu=
if [ "${SKIP_PYTHON:-0}" != 1 ]; then
    python3 -m venv "$work/venv" >&2
    "$work/venv/bin/pip" install --quiet okta >&2
    cat > "$work/okta_bulk.py" <<'PY'
import asyncio, os, sys, time
from okta.client import Client as OktaClient
from okta import models

async def main(prefix, count):
    # Plain http (the sandbox is loopback only) needs OKTA_TESTING_TESTINGDISABLEHTTPSCHECK=true in the
    # environment: the SDK reads its "testing" settings only from there or its YAML file.
    client = OktaClient({"orgUrl": os.environ["OKTA_CLIENT_ORGURL"], "token": os.environ["OKTA_CLIENT_TOKEN"]})
    semaphore = asyncio.Semaphore(8)
    failures = 0

    async def create(i):
        nonlocal failures
        login = f"{prefix}{i}@example.com"
        profile = {"email": login, "login": login, "firstName": "Bulk", "lastName": str(i)}
        async with semaphore:
            try:  # okta 3.x: keyword arguments and from_dict models
                body = models.CreateUserRequest.from_dict({"profile": profile})
                result = await client.create_user(body, activate=False)
            except (TypeError, AttributeError):  # okta 2.x: a dict body and query parameters
                result = await client.create_user({"profile": profile}, {"activate": "false"})
        if result[-1] is not None:
            failures += 1

    # The batch alone: wall time and this process's CPU (every thread), after the imports and the client's set-up.
    started, cpu_started = time.monotonic(), time.process_time()
    await asyncio.gather(*(create(i) for i in range(1, count + 1)))
    elapsed, cpu = time.monotonic() - started, time.process_time() - cpu_started
    print(f"{count / elapsed:.1f} {failures} {1000 * cpu / count:.3f}")

asyncio.run(main(sys.argv[1], int(sys.argv[2])))
PY
    start_sandbox
    export OKTA_TESTING_TESTINGDISABLEHTTPSCHECK=true
    # The script times its own batch (CPU by time.process_time): a one-user run to subtract was not stable here,
    # the interpreter's first run of the SDK costing more than a whole batch in later ones.
    measure "$work/sdk.txt" "$work/venv/bin/python" "$work/okta_bulk.py" bulk "$BULK_USERS"
    unset OKTA_TESTING_TESTINGDISABLEHTTPSCHECK
    read -r sdk_rate sdk_failed sdk_cpu < "$work/sdk.txt"
    echo "okta Python SDK, asyncio semaphore of 8: $sdk_rate users/s, $sdk_cpu ms CPU per user ($sdk_failed failed)"
    md+=("| Okta's Python SDK (\`okta\` from PyPI), \`create_user\` under an asyncio semaphore of 8 ($sdk_failed failed) | $sdk_rate | $sdk_cpu ms |")
fi

# The sandbox's own limit on the same endpoint: wrk, 8 connections, a new login for every request.
start_sandbox
cat > "$work/users.lua" <<LUA
wrk.method = "POST"
wrk.headers["Authorization"] = "SSWS $token"
wrk.headers["Content-Type"] = "application/json"
wrk.headers["Accept"] = "application/json"
local threads = 0
function setup(thread)
    threads = threads + 1
    thread:set("tid", threads)
end
local counter = 0
function request()
    counter = counter + 1
    local login = "wrk" .. tid .. "-" .. counter .. "@example.com"
    local body = '{"profile":{"email":"' .. login .. '","login":"' .. login .. '","firstName":"Bulk","lastName":"' .. counter .. '"}}'
    return wrk.format(nil, "/api/v1/users?activate=false", nil, body)
end
LUA
wrk -t 2 -c 8 -d "$BULK_WRK_DURATION" -s "$work/users.lua" "$org/api/v1/users?activate=false" > "$work/wrk-users.txt"
wrk_rate=$(awk '/^Requests\/sec/ { print $2 }' "$work/wrk-users.txt")
wrk_errors=$(awk '/Non-2xx/ { print $NF }' "$work/wrk-users.txt")
echo "wrk, 8 connections, $BULK_WRK_DURATION: $wrk_rate users/s${wrk_errors:+ ($wrk_errors non-2xx)}"
md+=("| wrk, 8 connections, $BULK_WRK_DURATION, the same request with a new login each (the sandbox's limit)${wrk_errors:+ ($wrk_errors non-2xx)} | $wrk_rate | |")

bulk_load_after=$(cut -d' ' -f1-3 /proc/loadavg)
goal="idflow ÷ wrk $(ratio "$idflow_rate" "$wrk_rate") (goal ≥ 0.5)"
[ -n "$sdk_rate" ] && goal="idflow ÷ SDK $(ratio "$idflow_rate" "$sdk_rate") (goal ≥ 1.5), $goal, idflow's CPU per user ÷ the SDK's $(ratio "$idflow_cpu" "$sdk_cpu") (goal < 1)"
echo "ratios: $goal; load average before $bulk_load_before, after $bulk_load_after"
md+=("| ratios (load average before $bulk_load_before, after $bulk_load_after) | $goal | |")
fi

if want sandbox || want memory; then
md+=("" "| sandbox | measured |" "|---|---|")
echo "## sandbox: token endpoint against the RSA-2048 signing bound"
cores=$(nproc)
speed() { openssl speed -seconds 3 rsa2048 2>/dev/null | awk '/^rsa 2048/ { print $6 }'; }
bound_of() { awk -v s="$1" -v c="$cores" 'BEGIN { printf "%.0f", s * c / 2 }'; }
signs=$(speed)
bound=$(bound_of "$signs")
echo "openssl speed rsa2048: $signs signs/s per core, $cores cores: bound $bound token responses/s"
md+=("| RSA-2048 signing (\`openssl speed rsa2048\`) | $(thousands "${signs%.*}") signs/s per core; bound $cores cores × $(thousands "${signs%.*}") ÷ 2 signatures = $(thousands "$bound") token responses/s |")
# OpenSSL signs with AVX-512 IFMA where the CPU has it; BoringSSL (swift-crypto, so jwt-kit and the sandbox)
# has no such code and uses the MULX/ADX routines, about half as fast. Masking the feature bit (CPUID 7 EBX
# bit 21) makes openssl take the same kind of path, which is the bound the sandbox can actually reach.
boring_bound=
if grep -qw avx512ifma /proc/cpuinfo 2>/dev/null; then
    boring_signs=$(OPENSSL_ia32cap=":~0x200000" speed)
    boring_bound=$(bound_of "$boring_signs")
    echo "without AVX-512 IFMA (BoringSSL's code path): $boring_signs signs/s per core: bound $boring_bound token responses/s"
    md+=("| the same without AVX-512 IFMA (\`OPENSSL_ia32cap=\":~0x200000\"\`), the code path BoringSSL and so swift-crypto has | $(thousands "${boring_signs%.*}") signs/s per core; bound $(thousands "$boring_bound") token responses/s |")
fi

# What the sandbox can reach is set by the code it signs with, not by OpenSSL's: swift-crypto's BoringSSL, called
# by jwt-kit with the JWT's encoding around it. Benchmarks/SigningSpeed measures both on one core.
echo "building idflow-signing-speed (release) in .build-bench/" >&2
IDFLOW_BENCH=1 swift build -c release --product idflow-signing-speed --scratch-path .build-bench >&2
speeds=$(.build-bench/release/idflow-signing-speed 3)
crypto_signs=$(awk '$1 == "swift-crypto" { print $2 }' <<< "$speeds")
jwt_signs=$(awk '$1 == "jwt-kit" { print $2 }' <<< "$speeds")
jwt_bound=$(bound_of "$jwt_signs")
echo "the sandbox's own signing code, one core: swift-crypto $crypto_signs signs/s, an RS256 JWT through jwt-kit $jwt_signs/s: bound $jwt_bound token responses/s"
md+=("| RSA-2048 signing on the sandbox's own code, one core (\`Benchmarks/SigningSpeed\`): swift-crypto's BoringSSL; a whole RS256 JWT through jwt-kit | $(thousands "$crypto_signs") signs/s; $(thousands "$jwt_signs") JWTs/s: bound $cores cores × $(thousands "$jwt_signs") ÷ 2 = $(thousands "$jwt_bound") token responses/s |")

# A refresh token that stays usable when reused: a grace period longer than the run.
echo '{"refreshTokenGraceSeconds": 86400}' > "$work/sandbox-config.json"
start_sandbox --config "$work/sandbox-config.json"
export OKTA_OAUTH2_CLIENTID=$(jq -r .clientId "$work/sandbox.json") OKTA_OAUTH2_REDIRECTURI=$(jq -r .redirectUri "$work/sandbox.json")
issuer=$(jq -r .issuer "$work/sandbox.json")
uid=$("$bin" register --email wrk@example.com | jq -r .id)
export IDFLOW_ACTIVATION_TOKEN=$("$bin" activate --user "$uid" | jq -r .activationToken)
printf '%s' 'Str0ng-Passw0rd!' | "$bin" set-password --password-stdin >/dev/null
# The wrk script that reuses refresh token $1.
wrk_script() {
    cat > "$work/refresh.lua" <<LUA
wrk.method = "POST"
wrk.headers["Content-Type"] = "application/x-www-form-urlencoded"
wrk.body = "grant_type=refresh_token&client_id=$OKTA_OAUTH2_CLIENTID&refresh_token=$1"
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
}
refresh_token=$(printf '%s' 'Str0ng-Passw0rd!' | "$bin" login-pkce --username wrk@example.com --password-stdin --no-store | jq -r .refresh_token)
wrk_script "$refresh_token"
cpu_ticks() { awk '{ print $14 + $15 }' "/proc/$sandbox_pid/stat"; }
if want sandbox; then
ticks0=$(cpu_ticks)
t0=$(now)
wrk -t 2 -c 8 -d "$WRK_DURATION" --latency -s "$work/refresh.lua" "$issuer/v1/token" > "$work/wrk.txt"
t1=$(now)
busy=$(awk -v a="$ticks0" -v b="$(cpu_ticks)" -v hz="$(getconf CLK_TCK)" -v s="$t0" -v e="$t1" 'BEGIN { printf "%.2f", (b - a) / hz / (e - s) }')
rps=$(awk '/^Requests\/sec/ { print $2 }' "$work/wrk.txt")
errors=$(awk '/Non-2xx/ { print $NF }' "$work/wrk.txt")
p50=$(awk '$1 == "50%" { print $2 }' "$work/wrk.txt")
p99=$(awk '$1 == "99%" { print $2 }' "$work/wrk.txt")
pct() { awk -v r="$rps" -v b="$1" 'BEGIN { printf "%.0f%%", 100 * r / b }'; }
fraction="$(pct "$jwt_bound") of the bound on the sandbox's signing code, $(pct "$bound") of the openssl bound"
[ -n "$boring_bound" ] && fraction+=", $(pct "$boring_bound") of the bound without AVX-512 IFMA"
echo "refresh grant: $rps responses/s = $fraction; p50 $p50, p99 $p99; the sandbox used $busy of $cores cores${errors:+; $errors non-2xx}"
md+=("| refresh grant, wrk, 8 connections, $WRK_DURATION | $rps responses/s = $fraction; p50 $p50, p99 $p99; the sandbox busy on $busy of $cores cores${errors:+ ($errors non-2xx)} |")
fi

if want memory; then
# Drives $1 token responses (two wrk threads, half each) and waits until both threads have stopped.
drive() {
    : > "$work/stopped"
    STOP_AFTER=$(($1 / 2)) STOP_FILE="$work/stopped" wrk -t 2 -c 8 -d 30m -s "$work/refresh.lua" "$issuer/v1/token" > /dev/null &
    local wrk_pid=$!
    while kill -0 "$wrk_pid" 2>/dev/null && [ "$(wc -l < "$work/stopped")" -lt 2 ]; do sleep 0.2; done
    kill -INT "$wrk_pid" 2>/dev/null || true
    wait "$wrk_pid" || true
}
held() {  # the token records the sandbox holds
    curl -s -H "Authorization: SSWS $token" "$org/sandbox/records" | jq '.accessTokens + .refreshTokens + .tokenFamilies'
}
n=$MEMORY_RESPONSES
before=$(kb)
drive "$n"
after1=$(kb) held1=$(held)
drive "$n"
after2=$(kb) held2=$(held)
# Past every token's expiry (refresh tokens idle out after 7 days), in two steps of 4 days with a refresh
# before each (by curl: idflow refuses tokens issued on the sandbox's future clock), so that one family lives
# on: the sweep of the next request drops everything else, and as many responses again should fit in the
# memory that freed.
advance_with() {  # $1 a refresh token, $2 seconds: uses the token, moves the clock on, prints the successor
    local next
    next=$(curl -s -X POST -H 'Content-Type: application/x-www-form-urlencoded' \
        -d "grant_type=refresh_token&client_id=$OKTA_OAUTH2_CLIENTID&refresh_token=$1" "$issuer/v1/token" | jq -r .refresh_token)
    curl -s -o /dev/null -X POST -H "Authorization: SSWS $token" -H 'Content-Type: application/json' \
        -d "{\"advanceSeconds\": $2}" "$org/sandbox/clock"
    echo "$next"
}
refresh_token=$(advance_with "$(advance_with "$refresh_token" 345600)" 345600)
refresh_token=$(advance_with "$refresh_token" 0)  # its request runs the sweep
wrk_script "$refresh_token"
held_purged=$(held)
drive "$n"
after3=$(kb) held3=$(held)
per_record=$(awk -v a="$after1" -v b="$after2" -v h1="$held1" -v h2="$held2" 'BEGIN { if (h2 > h1) printf "%.0f", (b - a) * 1024 / (h2 - h1); else print "?" }')
echo "sandbox resident memory: $before kB before; $after1 kB after $n token responses ($held1 token records held);" \
    "$after2 kB after $((2 * n)) ($held2 held, ≈$per_record bytes per record);" \
    "clock moved 8 days on ($held_purged held), $after3 kB after $n more ($held3 held)"
md+=("| resident memory: before; after $(thousands "$n") and $(thousands $((2 * n))) token responses (token records held) | $(thousands "$before") kB; $(thousands "$after1") kB ($(thousands "$held1")); $(thousands "$after2") kB ($(thousands "$held2")): ≈$per_record bytes per record still in its lifetime |")
md+=("| resident memory after the sandbox clock passes every token's expiry ($held_purged records left) and $(thousands "$n") more token responses | $(thousands "$after3") kB ($(thousands "$held3") held) |")
fi
fi

if want growth; then
echo "## sandbox: user creation as the org grows ($FLAT_USERS users)"
start_sandbox
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
want sandbox || want memory || md+=("" "| sandbox | measured |" "|---|---|")
md+=("| user creation as the org grows, \`register --batch\` at concurrency 8, users 1–1,000 vs $(thousands $((FLAT_USERS - 999)))–$(thousands "$FLAT_USERS") of one sandbox | $first vs $last users/s |")
fi

echo
echo "## for the README's performance section"
echo
echo "Measured on $(date -u +%Y-%m-%d) on $(nproc) cores of $cpu ($(uname -sr)), at commit $commit, with"
echo "\`scripts/bench.sh\`$( [ -n "${BENCH_ONLY:-}" ] && echo " (BENCH_ONLY=\"$BENCH_ONLY\")")."
printf '%s\n' "${md[@]}"
