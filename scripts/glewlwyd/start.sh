#!/usr/bin/env bash
# Starts Glewlwyd (Debian's `glewlwyd` package, an independent OpenID provider) on 127.0.0.1 for idflow's end-to-end
# tests, configured entirely through its admin REST API, and prints one JSON line on stdout describing it.
#
#   scripts/glewlwyd/start.sh [DIR]      start; DIR (default: a new temp directory) holds everything: the sqlite
#                                        database, the config, keys, secrets, the log, the pid file
#   scripts/glewlwyd/start.sh stop DIR   stop the server started in DIR
#
# GLEWLWYD_STOP_WITH_PID=PID: the server is also stopped once process PID has ended (a test run that crashed or was
# killed leaves no server behind).
#
# Not the package's systemd service and not its dbconfig database: a process of our own, a fresh database
# initialised from the schema the package ships, a random free port. Secrets are files (0600) named in the JSON.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)

pid=
fail() {
    echo "scripts/glewlwyd/start.sh: $*" >&2
    # A server this run started is not left behind when its configuration failed.
    [ -z "$pid" ] || kill "$pid" 2>/dev/null || true
    exit 1
}

if [ "${1:-}" = stop ]; then
    dir=${2:?usage: start.sh stop DIR}
    [ -f "$dir/glewlwyd.pid" ] || fail "no glewlwyd.pid in $dir"
    dir=$(cd "$dir" && pwd)
    pid=$(cat "$dir/glewlwyd.pid")
    # Only the glewlwyd of this directory: a pid the system has since given to another program is left alone.
    if [ -r "/proc/$pid/cmdline" ] && ! tr '\0' ' ' <"/proc/$pid/cmdline" | grep -qF -- "--config-file=$dir/glewlwyd.conf"; then
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

command -v glewlwyd >/dev/null || fail "glewlwyd is not installed (apt-get install glewlwyd)"
for tool in curl jq openssl sqlite3 od; do
    command -v "$tool" >/dev/null || fail "$tool is not installed (apt-get install $tool)"
done
schema=/usr/share/dbconfig-common/data/glewlwyd/install/sqlite3
[ -f "$schema" ] || schema=/usr/share/doc/glewlwyd/database/init.sqlite3.sql.gz
[ -f "$schema" ] || fail "the glewlwyd package's sqlite schema is missing (reinstall: apt-get install --reinstall glewlwyd)"

dir=${1:-$(mktemp -d "${TMPDIR:-/tmp}/glewlwyd.XXXXXX")}
mkdir -p "$dir"
chmod 700 "$dir"
dir=$(cd "$dir" && pwd)
umask 077
# A server left running in this directory by an earlier start is stopped first: it would hold the database.
if [ -f "$dir/glewlwyd.pid" ]; then
    "$0" stop "$dir"
fi

# A port nobody listens on (a connection is refused), below the kernel's range for ephemeral ports so that no
# program's outgoing connection or port-0 listener takes it meanwhile; glewlwyd failing to bind it is retried below.
ephemeral_low=32768
[ -r /proc/sys/net/ipv4/ip_local_port_range ] && read -r ephemeral_low _ </proc/sys/net/ipv4/ip_local_port_range
[ "$ephemeral_low" -gt 12000 ] || ephemeral_low=32768
free_port() {
    local port
    while true; do
        port=$((10000 + (RANDOM * 32768 + RANDOM) % (ephemeral_low - 10000)))
        if ! (exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null; then
            echo "$port"
            return
        fi
    done
}

# Runs a daemon in the background, in a session of its own, holding no descriptor of this script's but 0, 1 and 2:
# a caller that learns of this script's end from a descriptor it handed down (Foundation's Process does, with a
# socket) would otherwise wait for the daemon as well.
detach() {
    (
        for fd in /proc/$BASHPID/fd/*; do
            fd=${fd##*/}
            [ "$fd" -gt 2 ] && { eval "exec $fd>&-"; } 2>/dev/null
        done
        exec setsid "$@"
    ) &
}

# The database: the package's schema, which also creates the default admin (admin / password).
rm -f "$dir/glewlwyd.db"
case "$schema" in
*.gz) gzip -dc "$schema" | sqlite3 "$dir/glewlwyd.db" ;;
*) sqlite3 "$dir/glewlwyd.db" <"$schema" ;;
esac || fail "could not initialise the sqlite database from $schema"

started=
for _ in 1 2 3 4 5; do
    port=$(free_port)
    sed -e "s|@PORT@|$port|g" -e "s|@DIR@|$dir|g" "$here/glewlwyd.conf.template" >"$dir/glewlwyd.conf"
    : >"$dir/glewlwyd.log"
    # The server outlives this script; its output goes to a file so the caller's pipes close when this script ends.
    detach glewlwyd --config-file="$dir/glewlwyd.conf" >"$dir/glewlwyd.out" 2>&1 </dev/null
    pid=$!
    echo "$pid" >"$dir/glewlwyd.pid"
    for _ in $(seq 100); do
        # Any HTTP answer (the admin API's 401 without a session) means it listens.
        if [ "$(curl -s -o /dev/null -w '%{http_code}' "http://127.0.0.1:$port/api/scope/")" != 000 ]; then
            started=1
            break
        fi
        kill -0 "$pid" 2>/dev/null || break
        sleep 0.1
    done
    [ -n "$started" ] && break
    kill "$pid" 2>/dev/null || true
done
[ -n "$started" ] || fail "glewlwyd did not start: $(tail -5 "$dir/glewlwyd.out" "$dir/glewlwyd.log" 2>/dev/null)"

if [ -n "${GLEWLWYD_STOP_WITH_PID:-}" ]; then
    watched=$GLEWLWYD_STOP_WITH_PID
    detach bash -c 'while kill -0 "$1" 2>/dev/null && kill -0 "$2" 2>/dev/null; do sleep 1; done; kill "$2" 2>/dev/null' \
        glewlwyd-watch "$watched" "$pid" >/dev/null 2>&1 </dev/null
fi

base="http://127.0.0.1:$port/api"
issuer="$base/oidc"
# Three loopback redirect URIs, registered exactly (Glewlwyd compares them port included), so that tests which each
# run a listener do not wait for one another's port to leave TIME_WAIT.
callback_ports=()
redirect_uris=()
for _ in 1 2 3; do
    callback_ports+=("$(free_port)")
    redirect_uris+=("http://127.0.0.1:${callback_ports[-1]}/callback")
done
redirect_uris_json=$(printf '%s\n' "${redirect_uris[@]}" | jq -R . | jq -cs .)
callback_ports_json=$(printf '%s\n' "${callback_ports[@]}" | jq -cs .)
admin_jar="$dir/admin.cookies"

# admin: one call of the admin API; fails loudly with what Glewlwyd answered. The body (which may hold a password or
# a client secret) goes through a pipe, never on curl's command line.
admin() {
    local method=$1 path=$2 body=${3:-} status
    status=$(printf '%s' "$body" | curl -sS -o "$dir/last-answer" -w '%{http_code}' -b "$admin_jar" -X "$method" \
        -H 'Content-Type: application/json' --data-binary @- "$base$path") ||
        fail "$method $path: curl failed"
    case "$status" in
    2??) ;;
    *) fail "$method $path answered $status: $(cat "$dir/last-answer")" ;;
    esac
}

status=$(curl -sS -o /dev/null -w '%{http_code}' -c "$admin_jar" -H 'Content-Type: application/json' \
    -d '{"username":"admin","password":"password"}' "$base/auth/")
[ "$status" = 200 ] || fail "the default admin (admin/password from the schema) could not sign in: HTTP $status"

# Keys and secrets, each in a 0600 file.
openssl genpkey -algorithm RSA -pkeyopt rsa_keygen_bits:2048 -out "$dir/signing-key.pem" 2>/dev/null ||
    fail "openssl could not make the signing key"
openssl pkey -in "$dir/signing-key.pem" -pubout -out "$dir/signing-key.pub.pem" 2>/dev/null
openssl genpkey -algorithm RSA -pkeyopt rsa_keygen_bits:2048 -out "$dir/client-key.pem" 2>/dev/null ||
    fail "openssl could not make the private_key_jwt client key"
openssl pkey -in "$dir/client-key.pem" -pubout -out "$dir/client-key.pub.pem" 2>/dev/null
openssl rand -hex 24 >"$dir/client-secret"
tr -d '\n' <"$dir/client-secret" >"$dir/client-secret.tmp" && mv "$dir/client-secret.tmp" "$dir/client-secret"
printf 'Gl3w-%s' "$(openssl rand -hex 12)" >"$dir/user-password"

# The client's public key as a JWK (RSA: n and e, base64url) for private_key_jwt. A 2048-bit key with e=65537 has a
# fixed DER layout: the 256 bytes of the modulus start at byte 34 (after its 00 pad) and the exponent ends it.
b64url() { openssl base64 -A | tr '+/' '-_' | tr -d '='; }
der_hex=$(openssl pkey -pubin -in "$dir/client-key.pub.pem" -outform DER | od -An -v -tx1 | tr -d ' \n')
[ "${#der_hex}" = 588 ] && [ "${der_hex:56:10}" = 0282010100 ] && [ "${der_hex: -10}" = 0203010001 ] ||
    fail "the client key is not the RSA-2048 key with e=65537 this script expects"
client_jwk=$(jq -cn --arg n "$(openssl pkey -pubin -in "$dir/client-key.pub.pem" -outform DER | tail -c +34 | head -c 256 | b64url)" \
    '{keys: [{kty: "RSA", use: "sig", alg: "RS256", kid: "idflow-e2e", n: $n, e: "AQAB"}]}')

# Scopes as Glewlwyd names them: openid exists; profile, email and offline_access are added, password-protected.
for scope in profile email offline_access; do
    admin POST /scope/ "$(jq -cn --arg name "$scope" '{name: $name, display_name: $name, description: $name,
        password_required: true, password_max_age: 0, scheme: {}}')"
done

# The OpenID Connect plugin instance "oidc": issuer $base/oidc, RS256 with our key.
plugin=$(jq -cn --arg iss "$issuer" --rawfile key "$dir/signing-key.pem" --rawfile cert "$dir/signing-key.pub.pem" '{
  module: "oidc", name: "oidc", display_name: "OpenID Connect for idflow", enabled: true,
  parameters: {
    iss: $iss, "jwt-type": "rsa", "jwt-key-size": "256", key: $key, cert: $cert,
    "access-token-duration": 3600, "refresh-token-duration": 1209600, "code-duration": 600,
    "refresh-token-rolling": true, "refresh-token-one-use": "never",
    "allow-non-oidc": true,
    "auth-type-code-enabled": true, "auth-type-token-enabled": false, "auth-type-id-token-enabled": true,
    "auth-type-none-enabled": false, "auth-type-password-enabled": false, "auth-type-client-enabled": true,
    "auth-type-device-enabled": true, "auth-type-refresh-enabled": true,
    "scope": [], "additional-parameters": [], "claims": [],
    "subject-type": "public",
    "name-claim": "on-demand", "name-claim-scope": ["profile"],
    "email-claim": "on-demand", "email-claim-scope": ["email"],
    "scope-claim": "no",
    "allowed-scope": ["openid", "profile", "email", "offline_access"],
    "pkce-allowed": true, "pkce-method-plain-allowed": false,
    "introspection-revocation-allowed": true, "introspection-revocation-auth-scope": [],
    "introspection-revocation-allow-target-client": true,
    "register-client-allowed": false,
    "session-management-allowed": true, "session-cookie-name": "GLEWLWYD2_OIDC_SID",
    "session-cookie-expiration": 3600, "front-channel-logout-allowed": false, "back-channel-logout-allowed": false,
    "client-pubkey-parameter": "", "client-jwks-parameter": "jwks", "client-jwks_uri-parameter": "jwks_uri",
    "device-authorization-expiration": 600, "device-authorization-interval": 1,
    "oauth-dpop-allowed": true, "oauth-dpop-iat-duration": 60,
    "request-parameter-allow": true, "jwks-show": true
  }
}')
admin POST /mod/plugin/ "$plugin"

# The password user (the "database" user module the schema creates), allowed every scope of the tests.
username=jo
admin POST /user/ "$(jq -cn --arg u "$username" --rawfile pw "$dir/user-password" '{username: $u, name: "Jo Doe",
  email: "jo@example.com", enabled: true, password: $pw, scope: ["openid", "profile", "email", "offline_access"]}')"

# A public client (PKCE, the exact loopback redirect URI), a confidential one with a secret, and one that
# authenticates with private_key_jwt.
admin POST /client/ "$(jq -cn --argjson r "$redirect_uris_json" '{client_id: "idflow-public", client_name: "idflow public",
  enabled: true, confidential: false, redirect_uri: $r, token_endpoint_auth_method: ["none"],
  authorization_type: ["code", "refresh_token", "device_authorization"], scope: []}')"
admin POST /client/ "$(jq -cn --argjson r "$redirect_uris_json" --rawfile s "$dir/client-secret" '{client_id: "idflow-confidential",
  client_name: "idflow confidential", enabled: true, confidential: true, client_secret: $s, redirect_uri: $r,
  token_endpoint_auth_method: ["client_secret_basic", "client_secret_post"],
  authorization_type: ["code", "refresh_token", "device_authorization", "client_credentials"],
  scope: ["openid", "profile", "email", "offline_access"]}')"
admin POST /client/ "$(jq -cn --argjson jwks "$client_jwk" '{client_id: "idflow-jwt", client_name: "idflow private_key_jwt",
  enabled: true, confidential: true, token_endpoint_auth_method: ["private_key_jwt"], jwks: $jwks,
  authorization_type: ["client_credentials"], scope: ["openid", "profile", "email", "offline_access"]}')"

curl -fsS -o "$dir/openid-configuration.json" "$issuer/.well-known/openid-configuration" ||
    fail "the OIDC plugin does not answer discovery at $issuer/.well-known/openid-configuration"

jq -cn --arg issuer "$issuer" --arg base "$base" --arg dir "$dir" --argjson pid "$pid" --argjson port "$port" \
    --argjson redirectUris "$redirect_uris_json" --argjson callbackPorts "$callback_ports_json" --arg username "$username" '{
  issuer: $issuer, baseUrl: $base, port: $port, pid: $pid, dir: $dir,
  redirectUris: $redirectUris, callbackPorts: $callbackPorts,
  publicClientId: "idflow-public",
  confidentialClientId: "idflow-confidential", clientSecretFile: ($dir + "/client-secret"),
  privateKeyJwtClientId: "idflow-jwt", privateKeyFile: ($dir + "/client-key.pem"), privateKeyId: "idflow-e2e",
  username: $username, passwordFile: ($dir + "/user-password"),
  signingKeyFile: ($dir + "/signing-key.pem"), log: ($dir + "/glewlwyd.log")
}' | tee "$dir/glewlwyd.json"
