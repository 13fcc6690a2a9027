#!/usr/bin/env bash
# A scripted browser for the Glewlwyd that scripts/glewlwyd/start.sh started: what a person does on Glewlwyd's login
# page (a JavaScript app), done through the same REST API the page calls, with curl and a cookie jar.
#
#   browser.sh URL            an authorize URL: sign in with the password scheme, grant the client the scopes it
#                             asks for, GET the URL and follow the redirects to the (loopback) redirect URI, which
#                             is requested last, so idflow's listener receives the code
#   browser.sh --print URL    the same, but the final redirect URL is printed on stdout instead of requested
#                             (what a person copies from the address bar for `login-pkce --manual`)
#   browser.sh URL            a device verification URL (…/device?code=USER-CODE, login-device --open's link) or
#   browser.sh --device CODE  a user code: sign in, grant the scopes, approve the code
#
# GLEWLWYD_HOME names the directory start.sh used (its glewlwyd.json says who signs in and where the password is).
# The name holds no secret, so idflow passes it on to the browser it starts.
set -euo pipefail

fail() {
    echo "scripts/glewlwyd/browser.sh: $*" >&2
    exit 1
}

print=
device_code=
case "${1:-}" in
--print)
    print=1
    shift
    ;;
--device)
    device_code=${2:?usage: browser.sh --device USER-CODE}
    set -- ""
    ;;
esac
url=${1:-}
[ -n "$url" ] || [ -n "$device_code" ] || fail "usage: browser.sh [--print] URL | --device USER-CODE"

home=${GLEWLWYD_HOME:?GLEWLWYD_HOME must name the directory scripts/glewlwyd/start.sh used}
info="$home/glewlwyd.json"
[ -f "$info" ] || fail "no $info (did scripts/glewlwyd/start.sh run?)"
base=$(jq -r .baseUrl "$info")
username=$(jq -r .username "$info")
password_file=$(jq -r .passwordFile "$info")

jar=$(mktemp "${TMPDIR:-/tmp}/glewlwyd-browser.XXXXXX")
trap 'rm -f "$jar"' EXIT

# One query parameter of a URL, percent-decoded.
query_param() {
    local name=$1 query=${2#*\?} pair value
    local -a pairs
    IFS='&' read -ra pairs <<<"${query%%#*}"
    for pair in "${pairs[@]}"; do
        if [ "${pair%%=*}" = "$name" ]; then
            value=${pair#*=}
            value=${value//+/ }
            printf '%b' "${value//%/\\x}"
            return
        fi
    done
}

# Sign in with the password scheme, as the login page's form does.
status=$(jq -cn --arg u "$username" --rawfile p "$password_file" '{username: $u, password: $p}' |
    curl -sS -o /dev/null -w '%{http_code}' -c "$jar" -b "$jar" -H 'Content-Type: application/json' --data-binary @- \
        "$base/auth/")
[ "$status" = 200 ] || fail "signing in as $username answered HTTP $status"

# Grant a client scopes, as the page's consent screen does (space-separated, as in the authorize URL).
grant() {
    local client=$1 scopes=$2 answer
    answer=$(jq -cn --arg s "$scopes" '{scope: $s}' |
        curl -sS -o /dev/null -w '%{http_code}' -b "$jar" -c "$jar" -X PUT -H 'Content-Type: application/json' \
            --data-binary @- "$base/auth/grant/$client")
    [ "$answer" = 200 ] || fail "granting $scopes to $client answered HTTP $answer"
}

if [ -z "$device_code" ] && [[ "$url" == */device\?* ]]; then
    device_code=$(query_param code "$url")
fi

if [ -n "$device_code" ]; then
    # The device page: the user code is checked and approved for every client of start.sh (the code does not say
    # which client asked, as a person at the page would not know either).
    for client in $(jq -r '.publicClientId, .confidentialClientId' "$info"); do
        grant "$client" "openid profile email offline_access"
    done
    location=$(curl -sS -o /dev/null -w '%{redirect_url}' -b "$jar" -c "$jar" \
        "$base/oidc/device?code=$(jq -rn --arg c "$device_code" '$c|@uri')&g_continue")
    case "$location" in
    *prompt=deviceComplete*) exit 0 ;;
    *) fail "the device code $device_code was not approved; Glewlwyd redirected to: $location" ;;
    esac
fi

client_id=$(query_param client_id "$url")
scope=$(query_param scope "$url")
redirect_uri=$(query_param redirect_uri "$url")
[ -n "$client_id" ] && [ -n "$redirect_uri" ] || fail "not an authorize URL (no client_id or redirect_uri): $url"
grant "$client_id" "$scope"

# Follow the redirects by hand until one goes to the redirect URI, pressing the login page's "continue" once.
next=$url
for _ in 1 2 3 4 5 6 7 8 9 10; do
    location=$(curl -sS -o /dev/null -w '%{redirect_url}' -b "$jar" -c "$jar" "$next")
    [ -n "$location" ] || fail "no redirect from $next"
    if [[ "$location" == "$redirect_uri"* ]]; then
        if [ -n "$print" ]; then
            printf '%s\n' "$location"
        else
            curl -sS -o /dev/null "$location" || fail "the redirect URI did not answer: $location"
        fi
        exit 0
    fi
    case "$location" in
    *login.html*)
        # The login page: once the user is signed in and the scopes are granted, its "continue" button goes back
        # to callback_url with g_continue added; a second visit means the sign-in or the grant was not enough.
        callback=$(query_param callback_url "$location")
        [ -n "$callback" ] && [[ "$next" != *g_continue* ]] ||
            fail "Glewlwyd sent the browser to its login page instead of the redirect URI: $location"
        next="$callback&g_continue"
        ;;
    *) next=$location ;;
    esac
done
fail "too many redirects from $url"
