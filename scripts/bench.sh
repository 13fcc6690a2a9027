#!/usr/bin/env bash
# Start-up, end-to-end, bulk-creation, login and sandbox figures for the performance doc, and issue 45's goals.
#   1. `idflow --version` (the static, stripped binary of scripts/build-release.sh, and the default dynamic
#      release build) against `curl --version` (start-up cost, nothing of NIO or the sandbox), as × curl; and
#      two commands that run: `idflow token inspect --offline` of a fixed JWT (the concurrency runtime, its
#      options parsed, JSON out) and `idflow token get` with a valid stored token (a login stored once, then its
#      sandbox stopped: a valid token needs no network, and strace counts the sockets one run opens). Goal:
#      median of $STARTUP_RUNS (40) runs ≤ 1.6× `curl --version`'s, for both.
#   2. register → activate → set-password against a local `idflow sandbox`, wall time per chain.
#   3. New logins (logins), each against a bash script doing the same HTTP requests with curl and jq (written
#      below, run by hyperfine beside idflow, $LOGIN_RUNS (20) runs): `login-direct --username U
#      --totp-secret-file F` (the script computes the code with base32, od and openssl's HMAC-SHA1, timed on its
#      own too) and `login-sso --from A --client-id B`. A TOTP step's code is accepted once, so hyperfine's
#      --prepare re-enrols the user's Okta Verify before every run of either side: each run has a seed no run
#      has used and neither waits for the next 30 s step. Goal: ≤ 1.5× the script (medians).
#   4. Bulk creation of $BULK_USERS (2000) users at concurrency 8, each against a fresh default sandbox:
#      `idflow register --batch` (SSWS, and as a service app with DPoP), a curl loop with `xargs -P 8`,
#      `curl --parallel --parallel-max 8` with a config file of the same POSTs, Okta's Python SDK (`okta` from
#      PyPI, create_user under an asyncio semaphore of 8; skipped with SKIP_PYTHON=1), as users/s and client
#      CPU per user (user + system time ÷ users, start-up excluded by subtracting a one-user run); wrk on the
#      same endpoint for $BULK_WRK_DURATION (10s) as the sandbox's limit. Goals: idflow ≥ 0.7 of wrk, CPU per
#      user ≤ 1.5× curl --parallel's, with DPoP ≥ 0.9 of the rate without.
#   5. The sandbox: RSA-2048 signing bound (signs/s × cores ÷ 2, two signatures per token response), from the
#      sandbox's own signing code (Benchmarks/SigningSpeed, built in .build-bench/: swift-crypto, and whole JWTs
#      through jwt-kit) and from openssl speed (on a CPU with AVX-512 IFMA also without it),
#      refresh-grant throughput with wrk (8 connections, $WRK_DURATION (20s), one refresh token reused within a
#      long grace period) as a fraction of the bound with p50/p99 and the sandbox's CPU use (goals: ≥ 0.9 of
#      the jwt-kit bound, p99 < 40 ms); resident memory
#      before, after $MEMORY_RESPONSES (50,000) and twice that many token responses, with the token records the
#      sandbox holds, and after moving the sandbox clock past every token's expiry and as many responses again
#      (flat there = memory is reused, not leaked); the cost of user creation as the org grows (first vs last
#      1,000 of $FLAT_USERS, 100,000).
# Ends with a markdown block for the performance doc, from the sections that ran, then every goal measured
# with its figure, ratio and "goal met"/"not met", and the load average before and after the whole run.
# Needs hyperfine, curl (7.67+ for --parallel), jq, wrk, GNU time, openssl, coreutils' base32 and od
# (Debian: apt-get install -y hyperfine curl jq wrk time openssl; strace optional) and python3
# with venv for the SDK. Uses scripts/build-release.sh unless IDFLOW_BIN is set (IDFLOW_DYNAMIC_BIN then names
# a dynamic build for the start-up comparison), and builds Benchmarks/SigningSpeed unless SIGNING_SPEED_BIN names
# an idflow-signing-speed already built (a debug one will do for checking the script, not for its figures).
# BENCH_ONLY="startup bulk sandbox" runs some sections (startup, chain, logins, bulk, sandbox, memory, growth);
# default all. Shorter runs for checking the script: BULK_USERS=200 BULK_WRK_DURATION=3s FLAT_USERS=3000
# WRK_DURATION=5s MEMORY_RESPONSES=5000 STARTUP_RUNS=10 CHAIN_RUNS=5 LOGIN_RUNS=5 SKIP_PYTHON=1.
set -euo pipefail
only=" ${BENCH_ONLY:-startup chain logins bulk sandbox memory growth} "
want() { [[ $only == *" $1 "* ]]; }
: "${BULK_USERS:=2000}" "${FLAT_USERS:=100000}" "${WRK_DURATION:=20s}" "${MEMORY_RESPONSES:=50000}"
: "${STARTUP_RUNS:=40}" "${CHAIN_RUNS:=20}" "${LOGIN_RUNS:=20}"
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
# After the build, so a build's load is not counted as the machine's.
load_before=$(cut -d' ' -f1-3 /proc/loadavg)
commit=$(git rev-parse --short HEAD 2>/dev/null || echo unknown)
cpu=$(awk -F': ' '/^model name/ { print $2; exit }' /proc/cpuinfo 2>/dev/null || uname -m)

export IDFLOW_STATE_DIR="$work/state" HOME="$work" XDG_CONFIG_HOME="$work/config"
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

# Stops the sandbox and waits until it has exited.
stop_sandbox() {
    kill "${sandbox_pid:-}" 2>/dev/null || true
    wait "${sandbox_pid:-}" 2>/dev/null || true
    sandbox_pid=
}
password='Str0ng-Passw0rd!'
# Registers, activates and sets the password of user $1 on the running sandbox; prints the session token.
active_user() {
    local uid
    uid=$("$bin" register --email "$1" 2>/dev/null | jq -r .id)
    printf '%s' "$password" | IDFLOW_ACTIVATION_TOKEN=$("$bin" activate --user "$uid" 2>/dev/null | jq -r .activationToken) \
        "$bin" set-password --password-stdin 2>/dev/null | jq -r .sessionToken
}

# Issue 45's goals, as "what|figure|ratio|goal|verdict", for the summary at the end.
goals=()
# $1 the ratio, $2 le, ge or lt, $3 the target: "goal met", "not met" or "not measured".
verdict() {
    awk -v v="$1" -v op="$2" -v t="$3" 'BEGIN {
        sub(/^p99 /, "", v)
        if (v !~ /^[0-9]/) { print "not measured"; exit }
        ok = op == "le" ? v + 0 <= t + 0 : op == "ge" ? v + 0 >= t + 0 : v + 0 < t + 0
        print ok ? "goal met" : "not met" }'
}
# $1 what, $2 the figure, $3 the ratio, $4 le/ge/lt, $5 the target, $6 the goal as words: records and prints it.
goal() {
    local v
    v=$(verdict "$3" "$4" "$5")
    goals+=("$1|$2|$3|$6|$v")
    echo "goal: $1: $2 → $3 ($6): $v"
}

now() { date +%s.%N; }
rate() { awk -v n="$1" -v a="$2" -v b="$3" 'BEGIN { printf "%.1f", n / (b - a) }'; }
# hyperfine's JSON → "mean ms ± stddev" and the mean in seconds, by command.
hf_mean() { jq -r --arg c "$2" '.results[] | select(.command == $c) | .mean' "$1"; }
hf_median() { jq -r --arg c "$2" '.results[] | select(.command == $c) | .median' "$1"; }
ms_of() { awk -v s="$1" 'BEGIN { printf "%.1f", s * 1000 }'; }
hf_cell() { jq -r --arg c "$2" '.results[] | select(.command == $c) | "\(.mean * 1000 * 10 | round / 10) ms ± \(.stddev * 1000 * 10 | round / 10)"' "$1"; }
times_of() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.1f×", a / b }'; }
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { if (b > 0 && a != "") printf "%.2f", a / b; else print "?" }'; }
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
# `token get` with a valid stored token: a login stored once with this binary, then its sandbox stopped, so a
# run that touched the network (discovery, JWKS, a refresh) would fail; strace counts the sockets one run opens.
start_sandbox
OKTA_OAUTH2_CLIENTID=$(jq -r .clientId "$work/sandbox.json") OKTA_OAUTH2_REDIRECTURI=$(jq -r .redirectUri "$work/sandbox.json")
export OKTA_OAUTH2_CLIENTID OKTA_OAUTH2_REDIRECTURI
active_user startup@example.com > /dev/null
printf '%s' "$password" | "$bin" login-pkce --username startup@example.com --password-stdin > /dev/null 2> "$work/stderr.txt" ||
    { echo "token get: the login to store a token failed: $(cat "$work/stderr.txt")"; }
stop_sandbox
token_get="$bin token get"
token_get_note=
if "$bin" token get > /dev/null 2> "$work/token-get.txt"; then
    if command -v strace > /dev/null; then
        strace -f -qq -e trace=socket,connect -o "$work/token-get.strace" "$bin" token get > /dev/null 2>&1 || true
        inet=$(grep -c 'AF_INET' "$work/token-get.strace" || true)
        token_get_note="with its sandbox stopped; strace: $inet network socket calls in one run"
    else
        token_get_note="with its sandbox stopped (no strace to count sockets)"
    fi
    echo "token get with a valid stored token: works $token_get_note"
    commands=("$bin --version" "$inspect" "$token_get")
else
    echo "token get with a valid stored token FAILED with its sandbox stopped, so it is not measured: $(cat "$work/token-get.txt")"
    token_get=
    commands=("$bin --version" "$inspect")
fi
[ -n "$dynamic_bin" ] && commands+=("$dynamic_bin --version")
commands+=("curl --version" "$work/foundation-plain" "$work/foundation-urlsession" "${static_networking[@]}")
hyperfine --warmup 3 --runs "$STARTUP_RUNS" -N --export-json "$work/startup.json" "${commands[@]}"
curl_mean=$(hf_mean "$work/startup.json" "curl --version")
static_mean=$(hf_mean "$work/startup.json" "$bin --version")
echo "idflow static, stripped: $(times_of "$static_mean" "$curl_mean") curl's start-up"
# Issue 45's goal: a command that runs, median of the runs, at most 1.6× curl's.
curl_median=$(hf_median "$work/startup.json" "curl --version")
startup_goal() {  # $1 what, $2 the command
    local median
    median=$(hf_median "$work/startup.json" "$2")
    goal "start-up, $1 (median of $STARTUP_RUNS runs, curl --version $(ms_of "$curl_median") ms)" "$(ms_of "$median") ms" \
        "$(ratio "$median" "$curl_median")×" le 1.6 "≤ 1.6× curl --version"
}
startup_goal "token inspect --offline" "$inspect"
if [ -n "$token_get" ]; then
    startup_goal "token get, a valid stored token" "$token_get"
else
    goals+=("start-up, token get, a valid stored token|failed with its sandbox stopped|?|≤ 1.6× curl --version|not measured")
fi
rows=("\`idflow --version\` (static, stripped: \`scripts/build-release.sh\`)|$bin --version"
    "\`idflow token inspect --offline JWT\` (the same binary; a command that runs, no server)|$inspect")
[ -n "$token_get" ] && rows+=("\`idflow token get\` (the same binary; a valid stored token, $token_get_note)|$token_get")
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

# New logins against a bash script doing the same HTTP requests with curl and jq, on one sandbox with a Native SSO
# app. idflow reads the discovery document and JWKS from its cache after the first run (the set-up logins and
# the warm-up runs fill it), so each login is one token request on both sides; idflow also validates the ID
# token and stores the tokens, the script keeps the answer in a 0600 file once jq has found an access token in it.
if want logins; then
for tool in openssl base32 od; do
    command -v "$tool" >/dev/null || { echo "bench.sh's logins section needs $tool" >&2; exit 1; }
done
echo "## new logins against a bash script of the same HTTP requests (curl and jq), $LOGIN_RUNS runs each"
sso_app=0oaidflownativeb0000
echo "{\"nativeSSO\": {\"apps\": [{\"clientId\": \"$sso_app\"}]}}" > "$work/logins-config.json"
start_sandbox --config "$work/logins-config.json"
OKTA_OAUTH2_CLIENTID=$(jq -r .clientId "$work/sandbox.json") OKTA_OAUTH2_REDIRECTURI=$(jq -r .redirectUri "$work/sandbox.json")
export OKTA_OAUTH2_CLIENTID OKTA_OAUTH2_REDIRECTURI
issuer=$(jq -r .issuer "$work/sandbox.json")
# A profile for each login, with the scopes the scripts ask for: the one that enrols (managing the user's
# authenticators), login-direct's, app A's (with the device secret) and app B's.
mkdir -p "$XDG_CONFIG_HOME/idflow"
printf '%s\n' 'profiles:' '  enroller:' '    scope: openid okta.myAccount.appAuthenticator.manage' '  direct:' \
    '    scope: openid profile offline_access' '  a:' '    scope: openid profile' '  b:' '    scope: openid profile offline_access' \
    > "$XDG_CONFIG_HOME/idflow/config.yaml"
login_md=()
# $1 what, $2 the hyperfine JSON, $3 idflow's command, $4 the script's: a goal line and a row of the table.
login_goal() {
    local idflow_median script_median
    idflow_median=$(hf_median "$2" "$3") script_median=$(hf_median "$2" "$4")
    goal "new logins, $1 (median of $LOGIN_RUNS runs)" "idflow $(ms_of "$idflow_median") ms, the script $(ms_of "$script_median") ms" \
        "$(ratio "$idflow_median" "$script_median")×" le 1.5 "≤ 1.5× the curl and jq script"
    login_md+=("| \`$1\` | $(ms_of "$idflow_median") ms | $(ms_of "$script_median") ms | $(ratio "$idflow_median" "$script_median")× |")
}

# login-direct with a TOTP. The sandbox accepts a step's code once and idflow never sends one twice (its ledger
# waits for the next 30 s step), so each run of either side follows a --prepare that re-enrols the user's Okta
# Verify with a new seed: a code no run has sent, no wait. (Moving the sandbox clock a step instead would not
# do: idflow computes the code by this machine's clock, and the sandbox accepts one step either side of its own.)
totp_user=totp@example.com
active_user "$totp_user" | "$bin" login-pkce --session-token-stdin --profile enroller > /dev/null 2> "$work/stderr.txt" ||
    echo "login-direct: the enrolling login failed: $(cat "$work/stderr.txt")"
seed=$work/totp.seed
cat > "$work/enrol.sh" <<ENROL
#!/usr/bin/env bash
# A new Okta Verify enrollment of $totp_user, with a seed no run has used.
rm -f "$seed"
exec "$bin" enroll --profile enroller --name bench --totp-secret-file "$seed" > /dev/null 2> "$work/enrol-stderr.txt"
ENROL
# The code of a kept seed, in bash: the only work of the script's that is not an HTTP request or jq, timed on its
# own too. (The seed is a benchmark's: its key on openssl's command line does not matter here.)
cat > "$work/totp.bash" <<'TOTP'
# Sets code to the RFC 6238 code (HMAC-SHA1, 6 digits, 30 s steps) of the Base32 seed in file $1, now.
totp_code() {
    local seed key counter mac offset
    seed=$(< "$1")
    seed=${seed//[[:space:]]/}
    while (( ${#seed} % 8 )); do seed+='='; done
    key=$(base32 -d <<< "$seed" | od -An -v -tx1 | tr -d ' \n')
    printf -v counter '%016x' $((EPOCHSECONDS / 30))
    mac=$(printf "\\x${counter:0:2}\\x${counter:2:2}\\x${counter:4:2}\\x${counter:6:2}\\x${counter:8:2}\\x${counter:10:2}\\x${counter:12:2}\\x${counter:14:2}" |
        openssl dgst -sha1 -mac HMAC -macopt "hexkey:$key")
    mac=${mac##* }
    offset=$((16#${mac:39:1}))
    printf -v code '%06d' $(((16#${mac:offset * 2:8} & 0x7fffffff) % 1000000))
}
TOTP
printf '#!/usr/bin/env bash\nsource "%s"\ntotp_code "%s"\necho "$%s"\n' "$work/totp.bash" "$seed" code > "$work/totp-code.sh"
cat > "$work/login-direct.sh" <<DIRECT
#!/usr/bin/env bash
# login-direct --username $totp_user --totp-secret-file $seed in curl and jq: the seed's current code, one token
# request (the otp grant, the code on stdin), the answer kept once jq has found an access token in it.
set -euo pipefail
umask 077
source "$work/totp.bash"
totp_code "$seed"
printf 'otp=%s' "\$code" | curl -sSf -X POST "$issuer/v1/token" -H 'Accept: application/json' \\
    -d 'grant_type=urn%3Aokta%3Aparams%3Aoauth%3Agrant-type%3Aotp' -d 'scope=openid%20profile%20offline_access' \\
    --data-urlencode "login_hint=$totp_user" -d "client_id=$OKTA_OAUTH2_CLIENTID" --data-binary @- -o "$work/direct-tokens.json"
jq -e .access_token "$work/direct-tokens.json" > /dev/null
DIRECT
chmod +x "$work/totp-code.sh" "$work/login-direct.sh" "$work/enrol.sh"
direct_idflow="$bin login-direct --username $totp_user --totp-secret-file $seed --profile direct"
# One run of each first, so a failure is reported as one rather than as hyperfine's.
direct_ok=1
"$work/enrol.sh" || { direct_ok=0; echo "login-direct: enrolling a seed failed: $(cat "$work/enrol-stderr.txt")"; }
[ "$direct_ok" = 1 ] && [ "$("$work/totp-code.sh")" != "$("$bin" totp --secret-file "$seed" | jq -r .code)" ] &&
    echo "login-direct: the script's TOTP code differs from idflow totp's (a step boundary, or a wrong code)"
if [ "$direct_ok" = 1 ] && ! $direct_idflow > /dev/null 2> "$work/stderr.txt"; then
    direct_ok=0
    echo "login-direct FAILED, so it is not measured: $(cat "$work/stderr.txt")"
elif grep -q 'waiting' "$work/stderr.txt"; then
    echo "login-direct waited for a new TOTP step with a seed no run had used: $(cat "$work/stderr.txt")"
fi
"$work/enrol.sh" || true
if [ "$direct_ok" = 1 ] && ! "$work/login-direct.sh" > /dev/null 2> "$work/stderr.txt"; then
    direct_ok=0
    echo "login-direct's curl script FAILED, so it is not measured: $(cat "$work/stderr.txt") $(cat "$work/direct-tokens.json" 2> /dev/null)"
fi
if [ "$direct_ok" = 1 ]; then
    echo "login-direct with a TOTP: hyperfine's --prepare re-enrols $totp_user's Okta Verify (\`idflow enroll\`, a new seed) before every run of either side, so no run waits for a new TOTP step; the script computes the code with base32, od and openssl (HMAC-SHA1), timed alone as $work/totp-code.sh"
    hyperfine --warmup 2 --runs "$LOGIN_RUNS" -N --prepare "$work/enrol.sh" --export-json "$work/direct.json" \
        "$direct_idflow" "$work/login-direct.sh" "$work/totp-code.sh"
    login_goal "login-direct --totp-secret-file" "$work/direct.json" "$direct_idflow" "$work/login-direct.sh"
    code_median=$(hf_median "$work/direct.json" "$work/totp-code.sh")
    echo "of the script's time, computing the code (base32, od, openssl) took $(ms_of "$code_median") ms (median)"
    login_md+=("| of which the script's TOTP code (\`base32\`, \`od\`, \`openssl dgst -mac HMAC\`) | | $(ms_of "$code_median") ms | |")
else
    goals+=("new logins, login-direct --totp-secret-file|failed|?|≤ 1.5× the curl and jq script|not measured")
fi

# login-sso: app A signs in with a password and keeps a device secret; app B's tokens come from it.
sso_user=sso@example.com
active_user "$sso_user" > /dev/null
printf '%s' "$password" | "$bin" login-pkce --username "$sso_user" --password-stdin --device-sso --profile a > /dev/null 2> "$work/stderr.txt" ||
    echo "login-sso: app A's login failed: $(cat "$work/stderr.txt")"
cat > "$work/login-sso.sh" <<SSO
#!/usr/bin/env bash
# login-sso --from a --client-id $sso_app in curl and jq: app A's ID token and device secret from its stored
# login, one token request (the token exchange), app B's answer kept once jq has found an access token in it.
set -euo pipefail
umask 077
jq -j --arg client "$sso_app" '"grant_type=urn%3Aietf%3Aparams%3Aoauth%3Agrant-type%3Atoken-exchange&audience=api%3A%2F%2Fdefault&scope=openid%20profile%20offline_access&subject_token=" + (.tokens.id_token | @uri) + "&subject_token_type=urn%3Aietf%3Aparams%3Aoauth%3Atoken-type%3Aid_token&actor_token=" + (.tokens.device_secret | @uri) + "&actor_token_type=urn%3Ax-oath%3Aparams%3Aoauth%3Atoken-type%3Adevice-secret&client_id=" + \$client' "$IDFLOW_STATE_DIR/profiles/a/tokens.json" |
    curl -sSf -X POST "$issuer/v1/token" -H 'Accept: application/json' --data-binary @- -o "$work/sso-tokens.json"
jq -e .access_token "$work/sso-tokens.json" > /dev/null
SSO
chmod +x "$work/login-sso.sh"
sso_idflow="$bin login-sso --from a --client-id $sso_app --profile b"
sso_ok=1
if ! $sso_idflow > /dev/null 2> "$work/stderr.txt"; then
    sso_ok=0
    echo "login-sso FAILED, so it is not measured: $(cat "$work/stderr.txt")"
elif ! "$work/login-sso.sh" > /dev/null 2> "$work/stderr.txt"; then
    sso_ok=0
    echo "login-sso's curl script FAILED, so it is not measured: $(cat "$work/stderr.txt") $(cat "$work/sso-tokens.json" 2> /dev/null)"
fi
if [ "$sso_ok" = 1 ]; then
    hyperfine --warmup 2 --runs "$LOGIN_RUNS" -N --export-json "$work/sso.json" "$sso_idflow" "$work/login-sso.sh"
    login_goal "login-sso --from A --client-id B" "$work/sso.json" "$sso_idflow" "$work/login-sso.sh"
else
    goals+=("new logins, login-sso --from A --client-id B|failed|?|≤ 1.5× the curl and jq script|not measured")
fi
rm -f "$XDG_CONFIG_HOME/idflow/config.yaml"
unset OKTA_OAUTH2_CLIENTID OKTA_OAUTH2_REDIRECTURI
md+=("" "| new logins against a bash script of the same HTTP requests (curl and jq), hyperfine, $LOGIN_RUNS runs; medians | idflow | the script | × the script |" "|---|---|---|---|" "${login_md[@]}")
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

# The same batch in PrivateKey mode with DPoP (issue 45's goal: at least 0.9 of the SSWS rate; issue 20's was 0.8): a service app that
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
echo "idflow register --batch, PrivateKey + DPoP: $dpop_rate users/s, $dpop_cpu ms CPU per user ($dpop_failed failed), $(ratio "$dpop_rate" "$idflow_rate") of SSWS (goal ≥ 0.9)"
md+=("| \`idflow register --batch --concurrency 8\` as a service app with DPoP, a proof per user ($dpop_failed failed; $(ratio "$dpop_rate" "$idflow_rate") of SSWS, goal ≥ 0.9) | $dpop_rate | $dpop_cpu ms |")

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

# One curl process for the whole batch, as idflow is one process: `curl --parallel --parallel-max 8` (7.66+)
# with a config file of the same POSTs, its connections kept open and reused; a status line per request.
# --no-progress-meter (7.67+): -s on the command line does not silence --parallel's meter once the config
# file has `next`.
parallel_rate='' parallel_cpu=''
if curl --help all 2> /dev/null | grep -q -- --no-progress-meter; then
    parallel_config() {  # $1 e-mail prefix, $2 count
        awk -v p="$1" -v n="$2" -v url="$org/api/v1/users?activate=false" -v token="$token" 'BEGIN {
            for (i = 1; i <= n; i++) {
                printf "url = \"%s\"\nrequest = \"POST\"\nheader = \"Authorization: SSWS %s\"\n", url, token
                printf "header = \"Content-Type: application/json\"\nheader = \"Accept: application/json\"\n"
                printf "data = \"{\\\"profile\\\":{\\\"email\\\":\\\"%s%d@example.com\\\",\\\"login\\\":\\\"%s%d@example.com\\\",\\\"firstName\\\":\\\"Bulk\\\",\\\"lastName\\\":\\\"%d\\\"}}\"\n", p, i, p, i, i
                printf "output = \"/dev/null\"\nwrite-out = \"%%{http_code}\\n\"\n"
                if (i < n) print "next"
            } }'
    }
    start_sandbox
    parallel_config one 1 > "$work/parallel-one.curlrc"
    parallel_config bulk "$BULK_USERS" > "$work/parallel.curlrc"
    measure /dev/null curl -s --no-progress-meter --parallel --parallel-max 8 -K "$work/parallel-one.curlrc"
    parallel_cpu1=$used
    measure "$work/parallel-codes.txt" curl -s --no-progress-meter --parallel --parallel-max 8 -K "$work/parallel.curlrc"
    parallel_rate=$(rate "$BULK_USERS" 0 "$wall")
    parallel_cpu=$(per_user_ms "$used" "$parallel_cpu1")
    parallel_failed=$(grep -cv '^2' "$work/parallel-codes.txt" || true)
    echo "curl --parallel --parallel-max 8, one process: $parallel_rate users/s, $parallel_cpu ms CPU per user ($parallel_failed failed of $(wc -l < "$work/parallel-codes.txt") answered)"
    md+=("| \`curl --parallel --parallel-max 8\`, the same POSTs from a config file (one process, connections reused; $parallel_failed failed) | $parallel_rate | $parallel_cpu ms |")
else
    echo "curl --parallel: not measured, this curl ($(curl --version | head -n 1 | cut -d' ' -f2)) has no --no-progress-meter (7.67+)"
fi

sdk_rate='' sdk_cpu=''
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
goal="idflow ÷ wrk $(ratio "$idflow_rate" "$wrk_rate") (goal ≥ 0.7)"
[ -n "$parallel_cpu" ] && goal+=", idflow's CPU per user ÷ curl --parallel's $(ratio "$idflow_cpu" "$parallel_cpu") (goal ≤ 1.5), idflow ÷ curl --parallel $(ratio "$idflow_rate" "$parallel_rate")"
goal+=", with DPoP ÷ without $(ratio "$dpop_rate" "$idflow_rate") (goal ≥ 0.9)"
[ -n "$sdk_rate" ] && goal="idflow ÷ SDK $(ratio "$idflow_rate" "$sdk_rate") (goal ≥ 1.5), $goal, idflow's CPU per user ÷ the SDK's $(ratio "$idflow_cpu" "$sdk_cpu") (goal < 1)"
echo "ratios: $goal; load average before $bulk_load_before, after $bulk_load_after"
md+=("| ratios (load average before $bulk_load_before, after $bulk_load_after) | $goal | |")
goal "bulk, idflow register --batch ÷ wrk on the same endpoint" "$idflow_rate vs $wrk_rate users/s" "$(ratio "$idflow_rate" "$wrk_rate")" ge 0.7 "≥ 0.7"
goal "bulk, idflow's CPU per user ÷ curl --parallel's" "$idflow_cpu vs ${parallel_cpu:-?} ms" "$(ratio "$idflow_cpu" "$parallel_cpu")" le 1.5 "≤ 1.5"
goal "bulk, register --batch with DPoP ÷ without" "$dpop_rate vs $idflow_rate users/s" "$(ratio "$dpop_rate" "$idflow_rate")" ge 0.9 "≥ 0.9"
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
signing_speed=${SIGNING_SPEED_BIN:-}
if [ -z "$signing_speed" ]; then
    echo "building idflow-signing-speed (release) in .build-bench/" >&2
    IDFLOW_BENCH=1 swift build -c release --product idflow-signing-speed --scratch-path .build-bench >&2
    signing_speed=.build-bench/release/idflow-signing-speed
fi
speeds=$("$signing_speed" 3)
crypto_signs=$(awk '$1 == "swift-crypto" { print $2 }' <<< "$speeds")
jwt_signs=$(awk '$1 == "jwt-kit" { print $2 }' <<< "$speeds")
jwt_bound=$(bound_of "$jwt_signs")
echo "the sandbox's own signing code, one core: swift-crypto $crypto_signs signs/s, an RS256 JWT through jwt-kit $jwt_signs/s: bound $jwt_bound token responses/s"
md+=("| RSA-2048 signing on the sandbox's own code, one core (\`Benchmarks/SigningSpeed\`): swift-crypto's BoringSSL; a whole RS256 JWT through jwt-kit | $(thousands "$crypto_signs") signs/s; $(thousands "$jwt_signs") JWTs/s: bound $cores cores × $(thousands "$jwt_signs") ÷ 2 = $(thousands "$jwt_bound") token responses/s |")

# A refresh token that stays usable when reused: a grace period longer than the run.
echo '{"refreshTokenGraceSeconds": 86400}' > "$work/sandbox-config.json"
start_sandbox --config "$work/sandbox-config.json"
OKTA_OAUTH2_CLIENTID=$(jq -r .clientId "$work/sandbox.json") OKTA_OAUTH2_REDIRECTURI=$(jq -r .redirectUri "$work/sandbox.json")
export OKTA_OAUTH2_CLIENTID OKTA_OAUTH2_REDIRECTURI
issuer=$(jq -r .issuer "$work/sandbox.json")
uid=$("$bin" register --email wrk@example.com | jq -r .id)
IDFLOW_ACTIVATION_TOKEN=$("$bin" activate --user "$uid" | jq -r .activationToken)
export IDFLOW_ACTIVATION_TOKEN
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
# wrk's latency (e.g. 850.00us, 24.12ms, 1.02s, 1.10m) in milliseconds.
to_ms() {
    awk -v x="$1" 'BEGIN {
        if (x ~ /us$/) printf "%.2f", x / 1000; else if (x ~ /ms$/) printf "%.2f", x + 0
        else if (x ~ /m$/) printf "%.2f", x * 60000; else if (x ~ /s$/) printf "%.2f", x * 1000 }'
}
goal "sandbox token endpoint, refresh grant ÷ the signing bound (Benchmarks/SigningSpeed, jwt-kit)${errors:+ ($errors non-2xx)}" \
    "$rps vs $jwt_bound responses/s" "$(ratio "$rps" "$jwt_bound")" ge 0.9 "≥ 0.9"
goal "sandbox token endpoint, p99 latency at 8 connections" "p50 $p50 at $rps responses/s" "p99 $(to_ms "$p99") ms" lt 40 "< 40 ms"
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

# Issue 45's goals, each with its figure, ratio and verdict, and the load average around the whole run.
load_after=$(cut -d' ' -f1-3 /proc/loadavg)
echo
echo "## goals (issue 45)"
echo
echo "Load average before the measurements: $load_before; after: $load_after."
if [ ${#goals[@]} -eq 0 ]; then
    echo "(no section with a goal ran: startup, logins, bulk and sandbox have them)"
else
    echo
    echo "| goal | figure | ratio | target | |"
    echo "|---|---|---|---|---|"
    for row in "${goals[@]}"; do
        IFS='|' read -r what figure ratio_of target verdict_of <<< "$row"
        echo "| $what | $figure | $ratio_of | $target | $verdict_of |"
    done
    met=0
    for row in "${goals[@]}"; do [[ $row == *"|goal met" ]] && met=$((met + 1)); done
    echo
    echo "$met of ${#goals[@]} goals met."
fi
