#!/usr/bin/env bash
# Okta's Python SDK (`okta` from PyPI, unmodified) in PrivateKey mode against a local sandbox, with no API token:
# the default service app's key file (the sandbox's start-up JSON, `serviceApp`) signs the client assertion, and the
# SDK lists, creates and reads users with the access token it gets (okta-core.md §H). It runs twice: once with a
# Bearer token, and once with DPoP against a second sandbox whose service app requires it (`requireDPoP`), where the
# SDK must go through the nonce exchange and send a proof with every call; the same SDK without DPoP is refused there
# with the recorded `invalid_dpop_proof`. Any mismatch makes the script exit non-zero. Not part of `swift test`: it
# needs PyPI.
#
# Usage: scripts/python-sdk-service-app.sh    (after `swift build`; IDFLOW_BIN names another idflow binary)
# Needs python3 with venv, jq and openssl.
set -euo pipefail
cd "$(dirname "$0")/.."
bin=${IDFLOW_BIN:-.build/debug/idflow}
[ -x "$bin" ] || { echo "no $bin: run swift build first, or set IDFLOW_BIN" >&2; exit 1; }
for tool in jq openssl; do
    command -v "$tool" >/dev/null || { echo "python-sdk-service-app.sh needs $tool" >&2; exit 1; }
done
work=$(mktemp -d)
trap 'kill ${sandbox_pids:-} 2>/dev/null || true; rm -rf "$work"' EXIT

python3 -m venv "$work/venv" >&2
"$work/venv/bin/pip" install --quiet okta >&2
echo "okta SDK $("$work/venv/bin/python" -c 'import importlib.metadata as m; print(m.version("okta"))')"

# Starts a sandbox with config file $2 (or none) and waits for its start-up JSON in $1.
start_sandbox() {
    local out=$1
    shift
    "$bin" sandbox --port 0 "$@" > "$out" &
    sandbox_pids="${sandbox_pids:-} $!"
    for _ in $(seq 200); do [ -s "$out" ] && break; sleep 0.05; done
    [ -s "$out" ] || { echo "the sandbox did not start" >&2; exit 1; }
}

# 1. The default sandbox and its default service app, Bearer tokens.
start_sandbox "$work/bearer.json"
# 2. A sandbox whose service app requires DPoP, with a key made here.
openssl genpkey -algorithm RSA -pkeyopt rsa_keygen_bits:2048 -out "$work/dpop-key.pem" 2>/dev/null
chmod 600 "$work/dpop-key.pem"
openssl pkey -in "$work/dpop-key.pem" -pubout -out "$work/dpop-key.pub.pem"
jq -n --rawfile pem "$work/dpop-key.pub.pem" '{serviceApps: [{clientId: "0oaidflowdpopsvc0000", publicKey: $pem, keyId: "dpop-1",
    scopes: ["okta.users.read", "okta.users.manage"], requireDPoP: true}]}' > "$work/dpop.json"
start_sandbox "$work/dpop-sandbox.json" --config "$work/dpop.json"

# Plain http (the sandbox listens on loopback) needs the SDK's testing setting, which it reads only from the
# environment or its YAML file (as scripts/bench.sh does).
export OKTA_TESTING_TESTINGDISABLEHTTPSCHECK=true
export BEARER_ORG=$(jq -r .orgUrl "$work/bearer.json") BEARER_CLIENT=$(jq -r .serviceApp.clientId "$work/bearer.json")
export BEARER_KEY=$(jq -r .serviceApp.privateKeyFile "$work/bearer.json") BEARER_KID=$(jq -r .serviceApp.keyId "$work/bearer.json")
export DPOP_ORG=$(jq -r .orgUrl "$work/dpop-sandbox.json") DPOP_KEY="$work/dpop-key.pem"
# The SDK must not fall back on an API token: none is given to it.
unset OKTA_CLIENT_TOKEN

cat > "$work/service_app.py" <<'PY'
import asyncio, os, sys
from okta.client import Client as OktaClient
from okta import models

failures = []


def check(name, ok, detail=""):
    print(f"{'ok  ' if ok else 'FAIL'} {name}{': ' + detail if detail and not ok else ''}")
    if not ok:
        failures.append(name)


def split(result):
    """The SDK answers (data, response, error) or, on errors of calls without a body model, (response, error)."""
    error = result[-1]
    response = next((part for part in result[:-1] if hasattr(part, "status_code")), None)
    data = result[0] if len(result) == 3 else None
    return data, response, error


def client(org, client_id, key, kid, dpop):
    return OktaClient({
        "orgUrl": org, "authorizationMode": "PrivateKey", "clientId": client_id,
        "scopes": ["okta.users.read", "okta.users.manage"], "privateKey": key, "kid": kid, "dpopEnabled": dpop})


async def users_round(label, okta, login):
    users, response, error = split(await okta.list_users())
    check(f"{label}: list_users 200", error is None and response is not None and response.status_code == 200, str(error))
    check(f"{label}: list_users is a list", isinstance(users, list), repr(users))
    body = models.CreateUserRequest.from_dict({
        "profile": {"firstName": "Service", "lastName": "App", "email": login, "login": login}})
    user, _, error = split(await okta.create_user(body, activate=False))
    check(f"{label}: create_user STAGED", error is None and user is not None and user.status.value == "STAGED", str(error))
    if user is None:
        return
    read, _, error = split(await okta.get_user(user.id))
    check(f"{label}: get_user reads it back", error is None and read is not None and read.profile.login == login, str(error))
    users, _, error = split(await okta.list_users())
    check(f"{label}: list_users includes it", error is None and any(u.id == user.id for u in users or []), str(error))


async def main():
    bearer = client(os.environ["BEARER_ORG"], os.environ["BEARER_CLIENT"], os.environ["BEARER_KEY"], os.environ["BEARER_KID"], False)
    await users_round("Bearer", bearer, "bearer@example.com")

    dpop = client(os.environ["DPOP_ORG"], "0oaidflowdpopsvc0000", os.environ["DPOP_KEY"], "dpop-1", True)
    await users_round("DPoP", dpop, "dpop@example.com")
    token, token_type, error = await dpop._request_executor._oauth.get_oauth_token()
    check("DPoP: the token is DPoP-bound", error is None and token_type == "DPoP", f"{token_type} {error}")

    # The same app without DPoP is refused at the token endpoint, as Okta refuses it (recorded).
    plain = client(os.environ["DPOP_ORG"], "0oaidflowdpopsvc0000", os.environ["DPOP_KEY"], "dpop-1", False)
    _, _, error = split(await plain.list_users())
    check("no DPoP where it is required: invalid_dpop_proof", error is not None and "DPoP proof JWT header is missing" in str(error), str(error))

    print(f"{len(failures)} mismatch(es)" if failures else "all answers match")
    sys.exit(1 if failures else 0)


asyncio.run(main())
PY
"$work/venv/bin/python" "$work/service_app.py"
