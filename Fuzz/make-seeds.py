#!/usr/bin/env python3
"""Writes Fuzz/Seeds/: the hand-made starting inputs of the fuzz targets whose input is not a recorded response
(scripts/fuzz.sh adds the recordings of Tests/Fixtures itself). Run again after changing it; the output is checked in.
The signed tokens are made here with throwaway keys, so that the fuzzer starts from a token whose signature holds."""
import base64, json, os, time
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec, padding, rsa, utils

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "Seeds")
SEP = "\n----\n"

def write(target, name, text):
    folder = os.path.join(ROOT, target)
    os.makedirs(folder, exist_ok=True)
    with open(os.path.join(folder, name), "wb") as f:
        f.write(text.encode() if isinstance(text, str) else text)

def b64(data):
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()

def number(n):
    return b64(n.to_bytes((n.bit_length() + 7) // 8, "big"))

def jws(header, claims, sign):
    signing_input = b64(json.dumps(header, separators=(",", ":")).encode()) + "." + b64(json.dumps(claims, separators=(",", ":")).encode())
    return signing_input + "." + b64(sign(signing_input.encode()))

now = 1_700_000_000
rsa_key = rsa.generate_private_key(public_exponent=65537, key_size=2048)
pub = rsa_key.public_key().public_numbers()
rsa_jwk = {"kty": "RSA", "alg": "RS256", "kid": "k-rsa", "use": "sig", "n": number(pub.n), "e": number(pub.e)}
ec_key = ec.generate_private_key(ec.SECP256R1())
ecpub = ec_key.public_key().public_numbers()
ec_jwk = {"kty": "EC", "crv": "P-256", "kid": "k-ec", "use": "sig", "x": b64(ecpub.x.to_bytes(32, "big")), "y": b64(ecpub.y.to_bytes(32, "big"))}
jwks = json.dumps({"keys": [rsa_jwk, ec_jwk]})

def rs256(data):
    return rsa_key.sign(data, padding.PKCS1v15(), hashes.SHA256())

def es256(data):
    r, s = utils.decode_dss_signature(ec_key.sign(data, ec.ECDSA(hashes.SHA256())))
    return r.to_bytes(32, "big") + s.to_bytes(32, "big")

id_claims = {"iss": "https://example.okta.com/oauth2/default", "aud": "0oafuzz", "sub": "00u1", "iat": now, "exp": now + 3600,
             "nonce": "n-1", "at_hash": "abc", "cnf": {"jkt": "thumb"}}
write("jwt", "rs256-id-token", jws({"alg": "RS256", "kid": "k-rsa", "typ": "JWT"}, id_claims, rs256) + SEP + jwks)
write("jwt", "es256-id-token", jws({"alg": "ES256", "kid": "k-ec"}, id_claims, es256) + SEP + jwks)
write("jwt", "unsigned", jws({"alg": "none"}, {"iss": "x", "exp": 1e308}, lambda _: b"") + SEP + "{\"keys\":[]}")

challenge_claims = {"iss": "https://example.okta.com", "aud": "0oafuzz", "iat": now, "exp": now + 300, "nbf": now, "nonce": "n",
                    "transactionId": "ftx1", "orgId": "00o1", "authenticatorEnrollmentId": "aen1", "method": "push",
                    "verificationUri": "https://example.okta.com/idp/authenticators/aut1/transactions/ftx1/verify",
                    "challengeContext": {"transactionType": "LOGIN", "clientLocation": "Paris", "clientOS": "Mac", "unusualActivities": []},
                    "keyTypes": ["proofOfPossession"], "userVerification": "preferred", "riskLevel": "LOW", "signals": ["screenLock"]}
challenge = jws({"alg": "RS256", "kid": "k-rsa", "typ": "okta-pushbind+jwt"}, challenge_claims, rs256)
write("push", "pending-with-signed-challenge", json.dumps([{"payloadVersion": "IDXv1", "challenge": challenge}]) + SEP + challenge + SEP + jwks)

# Token server answers of custom registration: init, then complete.
write("custom-registration", "two-step",
      "200\nContent-Type: application/json\n\n" + json.dumps({"status": 200, "transaction_id": "tx-1", "data": {"next": "code"}}) + SEP
      + "200\nContent-Type: application/json\n\n" + json.dumps({"status": 200, "data": {"ok": True}, "oauth_token": {
          "token_type": "Bearer", "expires_in": 3600, "access_token": "at", "refresh_token": "rt", "scope": "openid"}}))
write("custom-registration", "recoverable", "200\n\n" + json.dumps({"status": 422, "transaction_id": "tx-1", "data": {"error": "bad"}}) + SEP
      + "400\nContent-Type: application/json\n\n{\"error\":\"invalid_request\",\"error_description\":\"no\"}")

# Headers the clients read.
write("okta-response", "rate-limited", "429\nX-Rate-Limit-Limit: 600\nX-Rate-Limit-Remaining: 0\nX-Rate-Limit-Reset: 1700000060\n"
      "Date: Tue, 14 Nov 2023 22:13:20 GMT\nRetry-After: 3\nContent-Type: application/json\n\n"
      + json.dumps({"errorCode": "E0000047", "errorSummary": "API call exceeded rate limit due to too many requests.", "errorCauses": []}))
write("okta-response", "dpop-refusal", "401\nWWW-Authenticate: DPoP error=\"use_dpop_nonce\", error_description=\"nonce\", algs=\"ES256 RS256\"\n"
      "DPoP-Nonce: n-1\nContent-Type: application/json\n\n{}")
write("okta-response", "bearer-scope", "403\nWWW-Authenticate: Bearer realm=\"IdFlow\", error=\"insufficient_scope\", scope=\"okta.users.manage\"\n\n")
write("okta-response", "proxy-page", "502\nContent-Type: text/html\n\n<html><body>Bad gateway</body></html>")

# The browser's redirect to the loopback listener.
write("loopback", "code", "GET /callback?code=c-1&state=fuzz-state HTTP/1.1\r\nHost: 127.0.0.1:8765\r\n\r\n")
write("loopback", "error", "GET /callback?error=access_denied&error_description=no%20way&state=fuzz-state HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
write("loopback", "interaction", "GET /callback?interaction_code=ic&state=fuzz-state#frag HTTP/1.1\r\n\r\n")
write("loopback", "forged", "GET /callback?code=<script>x</script>&state=other HTTP/1.1\r\n\r\n")

# register --batch files.
write("batch", "users.csv", "email,firstName,lastName,login,department\njo@example.com,Jo,Ex,,Sales\n\"a,b\"@x.com,\"Q \"\"q\"\"\",L,,\n")
write("batch", "users.ndjson", "{\"email\":\"jo@example.com\",\"firstName\":\"Jo\",\"attrs\":{\"department\":\"Sales\",\"n\":1}}\n\n{\"login\":\"x\"}\n")

# Configuration files.
write("config", "config.yaml", "profiles:\n  default:\n    orgUrl: https://example.okta.com\n    clientId: 0oafuzz\n    timeout: 30\n    maxRetries: 2\n    dpop: true\n"
      "  ci:\n    orgUrl: http://127.0.0.1:8080\n    proxy: http://proxy:3128\n")
write("config", "okta.yaml", "okta:\n  client:\n    orgUrl: https://example.okta.com\n    authorizationMode: PrivateKey\n    clientId: 0oasvc\n"
      "    scopes:\n      - okta.users.manage\n    kid: k1\n    dpopEnabled: 'true'\n    proxy:\n      host: proxy\n      port: '3128'\n")

# Stored state, as idflow writes it.
write("stored-state", "tokens.json", json.dumps({"issuer": "https://example.okta.com/oauth2/default", "clientId": "0oafuzz", "savedAt": "2023-11-14T22:13:20Z",
      "expiresAt": "2023-11-14T23:13:20Z", "tokens": {"token_type": "DPoP", "access_token": "at", "refresh_token": "rt", "expires_in": 3600,
      "scope": "openid offline_access"}, "idTokenClaims": {"sub": "00u1"},
      "dpopKey": {"privateKey": b64(ec_key.private_numbers().private_value.to_bytes(32, "big"))}}))
write("stored-state", "enrollment.json", json.dumps({"enrollmentId": "aen1", "authenticatorId": "aut1", "orgUrl": "https://example.okta.com",
      "orgId": "00o1", "oauthClientId": "0oafuzz", "userId": "00u1", "deviceId": "guo1", "clientInstanceId": "cli1", "methodEnrollmentId": "pfd1",
      "pendingUrl": "https://example.okta.com/p", "pushToken": "pt", "proofOfPossessionKeyId": "kid1", "createdAt": "2023-11-14T22:13:20Z"}))
write("stored-state", "key.json", json.dumps({"kid": "kid1", "role": "proofOfPossession", "createdAt": "2023-11-14T22:13:20Z",
      "privateKey": b64(ec_key.private_numbers().private_value.to_bytes(32, "big"))}))
write("stored-state", "sealed-key.json", json.dumps({"kid": "kid1", "role": "userVerification", "createdAt": "2023-11-14T22:13:20Z",
      "sealed": {"salt": b64(b"0123456789abcdef"), "rounds": 16384, "nonce": b64(b"0123456789ab"), "ciphertext": b64(b"x" * 48)}}))
write("stored-state", "idx-transaction.json", json.dumps({"id": "t1", "issuer": "https://example.okta.com/oauth2/default", "clientId": "0oafuzz",
      "interactionHandle": "ih", "codeVerifier": "v", "state": "s", "nonce": "n", "redirectUri": "http://127.0.0.1/cb",
      "expiresAt": "2023-11-14T23:13:20Z", "savedAt": "2023-11-14T22:13:20Z"}))

# Requests to the sandbox: METHOD /path, headers, a blank line, the body. {user} is the prepared user's id.
user = {"profile": {"login": "new@example.com", "email": "new@example.com", "firstName": "N", "lastName": "U"}}
sandbox = {
    "sandbox-filter": {
        "search": 'search=profile.login%20eq%20%22fuzz%40example.com%22%20and%20(status%20eq%20%22ACTIVE%22%20or%20status%20sw%20%22P%22)&limit=5',
        "filter": 'filter=lastUpdated%20gt%20%222020-01-01T00%3A00%3A00.000Z%22&after=00u',
        "q": "q=fuzz&limit=2",
    },
    "sandbox-users": {
        "create": "POST /api/v1/users?activate=false\n\n" + json.dumps(user),
        "create-with-password": "POST /api/v1/users?activate=true\n\n" + json.dumps({**user, "credentials": {"password": {"value": "Aa1!aaaaaa"}}}),
        "get": "GET /api/v1/users/fuzz@example.com\n\n",
        "update": "POST /api/v1/users/{user}\n\n" + json.dumps({"profile": {"nickName": "f"}}),
        "lifecycle": "POST /api/v1/users/{user}/lifecycle/reset_password?sendEmail=false\n\n",
        "forgot": "POST /api/v1/users/{user}/credentials/forgot_password?sendEmail=false\n\n",
        "records": "GET /sandbox/records\n\n",
    },
    "sandbox-authn": {
        "primary": "POST /api/v1/authn\n\n" + json.dumps({"username": "fuzz@example.com", "password": "Fuzz-Passw0rd!", "options": {"warnBeforePasswordExpired": True}}),
        "token": "POST /api/v1/authn\n\n" + json.dumps({"token": "abc"}),
        "recovery": "POST /api/v1/authn/recovery/password\n\n" + json.dumps({"username": "fuzz@example.com", "factorType": "EMAIL"}),
        "verify": "POST /api/v1/authn/factors/emf1/verify\n\n" + json.dumps({"stateToken": "st", "passCode": "123456"}),
        "reset": "POST /api/v1/authn/credentials/reset_password\n\n" + json.dumps({"stateToken": "st", "newPassword": "Aa1!aaaaaa"}),
    },
    "sandbox-oauth": {
        "password-grant": "POST /oauth2/default/v1/token\nContent-Type: application/x-www-form-urlencoded\n\ngrant_type=password&username=fuzz%40example.com&password=Fuzz-Passw0rd%21&client_id=0oaidflowsandbox0000&scope=openid%20offline_access",
        "authorize": "GET /oauth2/default/v1/authorize?client_id=0oaidflowsandbox0000&response_type=code&redirect_uri=http%3A%2F%2F127.0.0.1%3A8765%2Fcallback&scope=openid&state=s&code_challenge=E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM&code_challenge_method=S256&sessionToken=x\n\n",
        "device": "POST /oauth2/default/v1/device/authorize\nContent-Type: application/x-www-form-urlencoded\n\nclient_id=0oaidflowsandbox0000&scope=openid",
        "client-credentials": "POST /oauth2/v1/token\nContent-Type: application/x-www-form-urlencoded\nDPoP: eyJhbGciOiJFUzI1NiJ9.e30.sig\n\ngrant_type=client_credentials&scope=okta.users.manage&client_assertion_type=urn%3Aietf%3Aparams%3Aoauth%3Aclient-assertion-type%3Ajwt-bearer&client_assertion=eyJhbGciOiJSUzI1NiJ9.e30.c2ln",
        "introspect": "POST /oauth2/default/v1/introspect\nContent-Type: application/x-www-form-urlencoded\n\ntoken=abc&token_type_hint=access_token&client_id=0oaidflowsandbox0000",
        "custom-registration": "POST /oauth/custom-registration/0oaidp/init\nAuthorization: Basic MG9hOnNlY3JldA==\n\n" + json.dumps({"data": "invite"}),
        "resource": "GET /resource/echo\nAuthorization: Bearer abc\n\n",
    },
    "sandbox-idx": {
        "interact": "POST /oauth2/default/v1/interact\nContent-Type: application/x-www-form-urlencoded\n\nclient_id=0oaidflowsandbox0000&scope=openid&redirect_uri=http%3A%2F%2F127.0.0.1%3A8765%2Fcallback&code_challenge=E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM&code_challenge_method=S256&state=s",
        "introspect": "POST /idp/idx/introspect\nContent-Type: application/ion+json; okta-version=1.0.0\n\n" + json.dumps({"interactionHandle": "ih"}),
        "identify": "POST /idp/idx/identify\nContent-Type: application/ion+json; okta-version=1.0.0\n\n" + json.dumps({"stateHandle": "sh", "identifier": "fuzz@example.com", "credentials": {"passcode": "Fuzz-Passw0rd!"}}),
        "answer": "POST /idp/idx/challenge/answer\n\n" + json.dumps({"stateHandle": "sh", "credentials": {"passcode": "123456", "answer": "x", "totp": "1"}}),
        "enroll": "POST /idp/idx/credential/enroll\n\n" + json.dumps({"stateHandle": "sh", "authenticator": {"id": "aut1", "methodType": "sms", "phoneNumber": "+15555550100"}}),
        "new-profile": "POST /idp/idx/enroll/new\n\n" + json.dumps({"stateHandle": "sh", "userProfile": {"email": "n@example.com", "firstName": "N", "lastName": "U"}}),
    },
    "sandbox-devices": {
        "organization": "GET /.well-known/okta-organization\n\n",
        "configuration": "GET /.well-known/app-authenticator-configuration?oauthClientId=0oaidflowsandbox0000\n\n",
        "enroll": "POST /idp/myaccount/app-authenticators\nAuthorization: Bearer at\n\n" + json.dumps({"authenticatorId": "aut1", "device": {"clientInstanceId": "c", "clientInstanceKey": {"kty": "EC", "crv": "P-256", "x": "x", "y": "y"}, "displayName": "d", "platform": "IOS", "osVersion": "17"}, "appSignals": {}, "methods": {"push": {"pushToken": "p", "apsEnvironment": "development", "keys": {"proofOfPossession": {"kty": "EC"}}, "capabilities": {"transactionTypes": ["LOGIN"]}}}}),
        "pending": "GET /idp/myaccount/app-authenticators/aen1/push/notifications\nAuthorization: Bearer at\n\n",
        "verify": "POST /idp/myaccount/app-authenticators/challenge/ftx1/verify\n\n" + json.dumps({"challengeResponse": "eyJ.e30.x", "method": "push"}),
        "push": "POST /sandbox/push\n\n" + json.dumps({"username": "fuzz@example.com"}),
    },
}
for target, seeds in sandbox.items():
    for name, text in seeds.items():
        write(target, name, text)

# The redactor: a form, a URL's query and a header value beside the recordings.
write("redactor", "form", "grant_type=password&username=jo&password=x&client_secret=y&scope=openid")
write("redactor", "query", "code=abc&state=s#access_token=t&id_token=i")

# The QR code reader: Okta's recorded enrollment PNGs, and a picture given raw (width, height, one byte a pixel) for
# the sampler: 21 modules of 3 pixels, the top finder rows and a left column down to the picture's last row.
FIXTURES = os.path.join(os.path.dirname(ROOT), "..", "Tests", "Fixtures", "okta-idx")
for fixture in ["google-otp-enroll-qrcode.json", "okta-verify-enroll-poll-qrcode.json"]:
    with open(os.path.join(FIXTURES, fixture)) as f:
        href = json.load(f)["currentAuthenticator"]["value"]["contextualData"]["qrcode"]["href"]
    write("qr-code", fixture.replace(".json", ".png"), base64.b64decode(href[len("data:image/png;base64,"):]))
width, height, module = 63, 61, 3
def dark(row, column):
    return column == 0 or (row == 0 and (column < 7 or column >= 14))
pixels = bytes(0 if dark(y // module, x // module) else 255 for y in range(height) for x in range(width))
write("qr-code", "picture-21-modules", bytes([width, height]) + pixels)
