#!/usr/bin/env bash
# Okta's Python SDK (`okta` from PyPI, unmodified) drives the users API's recovery lifecycle calls against a local
# sandbox: expire_password, expire_password_with_temp_password, reset_password (send_email false), unlock_user (on a
# user locked by wrong passwords, and the E0000032 refusal on an active one), suspend_user and unsuspend_user. Each
# answer is checked against what Okta answers (okta-core.md §G, Tests/Fixtures/okta-core/); any mismatch makes the
# script exit non-zero. Not part of `swift test`: it needs PyPI.
#
# Usage: scripts/python-sdk-lifecycle.sh    (after `swift build`; IDFLOW_BIN names another idflow binary)
# Needs python3 with venv, and jq.
set -euo pipefail
cd "$(dirname "$0")/.."
bin=${IDFLOW_BIN:-.build/debug/idflow}
[ -x "$bin" ] || { echo "no $bin: run swift build first, or set IDFLOW_BIN" >&2; exit 1; }
command -v jq >/dev/null || { echo "python-sdk-lifecycle.sh needs jq (apt-get install -y jq)" >&2; exit 1; }
work=$(mktemp -d)
trap 'kill "${sandbox_pid:-}" 2>/dev/null || true; rm -rf "$work"' EXIT

python3 -m venv "$work/venv" >&2
"$work/venv/bin/pip" install --quiet okta >&2
echo "okta SDK $("$work/venv/bin/python" -c 'import importlib.metadata as m; print(m.version("okta"))')"

# Three wrong passwords lock a user, so that the unlock check does not need ten sign-ins.
echo '{"passwordPolicy": {"lockout": {"maxAttempts": 3}}}' > "$work/config.json"
"$bin" sandbox --port 0 --config "$work/config.json" > "$work/sandbox.json" &
sandbox_pid=$!
for _ in $(seq 200); do [ -s "$work/sandbox.json" ] && break; sleep 0.05; done
[ -s "$work/sandbox.json" ] || { echo "the sandbox did not start" >&2; exit 1; }
export OKTA_CLIENT_ORGURL=$(jq -r .orgUrl "$work/sandbox.json") OKTA_CLIENT_TOKEN=$(jq -r .apiToken "$work/sandbox.json")
# Plain http (the sandbox listens on loopback) needs the SDK's testing setting, which it reads only from the
# environment or its YAML file (as scripts/bench.sh does).
export OKTA_TESTING_TESTINGDISABLEHTTPSCHECK=true

cat > "$work/lifecycle.py" <<'PY'
import asyncio, json, os, sys, urllib.error, urllib.request
from okta.client import Client as OktaClient
from okta import models

ORG = os.environ["OKTA_CLIENT_ORGURL"]
PASSWORD = "Correct-Horse-7"
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


def raw(response):
    return json.loads(response.raw_data or b"{}") if response is not None else None


def authn(username, password):
    """A sign-in over the Authn API (not the management SDK's business): the HTTP status and body."""
    request = urllib.request.Request(
        f"{ORG}/api/v1/authn", data=json.dumps({"username": username, "password": password}).encode(),
        headers={"Content-Type": "application/json", "Accept": "application/json"}, method="POST")
    try:
        with urllib.request.urlopen(request) as answer:
            return answer.status, json.load(answer)
    except urllib.error.HTTPError as error:
        return error.code, json.load(error)


async def main():
    client = OktaClient({"orgUrl": ORG, "token": os.environ["OKTA_CLIENT_TOKEN"]})

    async def active_user(login):
        body = models.CreateUserRequest.from_dict({
            "profile": {"firstName": "John", "lastName": "Doe", "email": login, "login": login},
            "credentials": {"password": {"value": PASSWORD}}})
        user, _, error = split(await client.create_user(body, activate=True))
        check(f"create_user {login} ACTIVE", error is None and user.status.value == "ACTIVE", str(error))
        return user.id

    async def status(user_id):
        user, _, _ = split(await client.get_user(user_id))
        return user.status.value

    # expire_password: 200 with the full user, already PASSWORD_EXPIRED (user-expire-password-oie.json).
    uid = await active_user("expire@example.com")
    user, response, error = split(await client.expire_password(uid))
    check("expire_password: 200", error is None and response.status_code == 200, str(error))
    check("expire_password: the User model, PASSWORD_EXPIRED", user is not None and user.status.value == "PASSWORD_EXPIRED")
    check("expire_password: links as ACTIVE", set(raw(response)["_links"]) >= {"suspend", "resetPassword", "expirePassword", "deactivate"})
    code, body = authn("expire@example.com", PASSWORD)
    check("Authn after expire_password: PASSWORD_EXPIRED", code == 200 and body.get("status") == "PASSWORD_EXPIRED", f"{code} {body}")

    # expire_password_with_temp_password: 200 {"tempPassword"} of 12 characters (user-expire-password-with-temp-password-oie.json).
    uid = await active_user("temp@example.com")
    _, response, error = split(await client.expire_password_with_temp_password(uid))
    temporary = (raw(response) or {}).get("tempPassword", "")
    check("expire_password_with_temp_password: 200 {tempPassword}", error is None and response.status_code == 200
          and list(raw(response)) == ["tempPassword"], str(error))
    check("expire_password_with_temp_password: 12 characters", len(temporary) == 12, temporary)
    check("expire_password_with_temp_password: PASSWORD_EXPIRED", await status(uid) == "PASSWORD_EXPIRED")
    code, body = authn("temp@example.com", temporary)
    check("Authn with the temporary password: PASSWORD_EXPIRED", body.get("status") == "PASSWORD_EXPIRED", f"{code} {body}")

    # reset_password(send_email=False): {"resetPasswordUrl": ".../reset_password/drp…"}, the user RECOVERY.
    token, response, error = split(await client.reset_password(uid, send_email=False))
    url = getattr(token, "reset_password_url", None) or ""
    check("reset_password: 200", error is None and response.status_code == 200, str(error))
    check("reset_password: {resetPasswordUrl}", list(raw(response)) == ["resetPasswordUrl"], str(raw(response)))
    check("reset_password: URL shape", url.startswith(f"{ORG}/reset_password/drp") and len(url.rsplit("/", 1)[1]) == 20, url)
    check("reset_password: RECOVERY", await status(uid) == "RECOVERY")

    # unlock_user: E0000032 on an ACTIVE user (error-E0000032-unlock-not-locked.json) ...
    uid = await active_user("locked@example.com")
    _, response, error = split(await client.unlock_user(uid))
    check("unlock_user on ACTIVE: 403 E0000032", error is not None and getattr(error, "status", None) == 403
          and getattr(error, "error_code", None) == "E0000032"
          and [c.get("errorSummary") for c in getattr(error, "error_causes", [])] == ["The user is not locked out."], str(error))
    # ... and 200 {} on one locked by wrong passwords, who then signs in.
    for _ in range(3):
        authn("locked@example.com", "Wrong-Password-0")
    check("three wrong passwords: LOCKED_OUT", await status(uid) == "LOCKED_OUT")
    _, response, error = split(await client.unlock_user(uid))
    check("unlock_user on LOCKED_OUT: 200 {}", error is None and response.status_code == 200 and raw(response) == {}, str(error))
    check("unlock_user: ACTIVE", await status(uid) == "ACTIVE")
    code, body = authn("locked@example.com", PASSWORD)
    check("Authn after unlock: SUCCESS", body.get("status") == "SUCCESS", f"{code} {body}")

    # suspend_user / unsuspend_user: 200 {} each way, E0000038 on the wrong status.
    _, response, error = split(await client.suspend_user(uid))
    check("suspend_user: 200 {}", error is None and response.status_code == 200 and raw(response) == {}, str(error))
    check("suspend_user: SUSPENDED", await status(uid) == "SUSPENDED")
    _, response, error = split(await client.suspend_user(uid))
    check("suspend_user on SUSPENDED: 403 E0000038", getattr(error, "error_code", None) == "E0000038", str(error))
    _, response, error = split(await client.unsuspend_user(uid))
    check("unsuspend_user: 200 {}", error is None and response.status_code == 200 and raw(response) == {}, str(error))
    check("unsuspend_user: ACTIVE", await status(uid) == "ACTIVE")
    _, response, error = split(await client.unsuspend_user(uid))
    check("unsuspend_user on ACTIVE: 403 E0000038", getattr(error, "error_code", None) == "E0000038", str(error))

    print(f"{len(failures)} mismatch(es)" if failures else "all answers match")
    sys.exit(1 if failures else 0)


asyncio.run(main())
PY
"$work/venv/bin/python" "$work/lifecycle.py"
