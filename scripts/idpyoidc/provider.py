#!/usr/bin/env python3
"""An RFC 8693 token exchange provider for idflow's end-to-end tests: idpyoidc's own Server (PyPI `idpyoidc`,
pinned in .ci/run), served by Python's http.server on 127.0.0.1. Started by scripts/idpyoidc/start.sh, which says
how to use it; this file is the server.

    provider.py DIR [WATCHED_PID]

DIR holds everything (keys, the client secret, the subject token, the log) and, once the server listens, provider.json
describing it. With WATCHED_PID the server stops once that process has ended, so a test run that crashed leaves no
server behind.

Everything that answers is idpyoidc's: discovery, the JWKS, and its token endpoint with its TokenExchangeHelper and
validate_token_exchange_policy. Two things are done here because idpyoidc 5.0.0 has no way to do them over HTTP
without a browser sign-in:
  - The subject token (an access token of user jo for client idflow-app) is minted at start-up with idpyoidc's session
    API, as its own token exchange tests do (create_session, authz, mint_token), and written to a 0600 file. Its
    client_credentials and password grants cannot stand in: the grant they mint from has no usage rules allowing
    exchange ("Minting of access_token not supported"), and a client's second request fails inside idpyoidc
    (TypeError: 'ClientSessionInfo' object is not subscriptable).
  - Form bodies are decoded here: idpyoidc's token endpoint takes a dict (its request_format is json).
"""

import base64
import json
import os
import secrets
import sys
import threading
import time
import traceback
import urllib.parse
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

from idpyoidc.message.oidc import AuthorizationRequest
from idpyoidc.server import Server
from idpyoidc.server.authn_event import create_authn_event
from idpyoidc.server.client_authn import verify_client
from idpyoidc.server.configure import ASConfiguration
from idpyoidc.server.exception import ClientAuthenticationError, UnAuthorizedClient
from idpyoidc.server.user_authn.authn_context import INTERNETPROTOCOLPASSWORD

EXCHANGE = "urn:ietf:params:oauth:grant-type:token-exchange"
ACCESS_TOKEN_TYPE = "urn:ietf:params:oauth:token-type:access_token"
# The audience the gateway may ask for; any other is refused with invalid_target by idpyoidc's policy.
AUDIENCE = "https://api.example.test"
SCOPES = ["openid", "read", "write"]
USERNAME = "jo"


def write_secret(path, text):
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(fd, "w") as f:
        f.write(text)


def build_server(directory, issuer):
    """idpyoidc's Server: discovery, the JWKS, and the token endpoint with the token exchange grant and idpyoidc's own
    policy function. The authorization endpoint is configured only so that discovery names one (idflow reads every
    provider's discovery document, which OpenID Connect Discovery says has one); this server does not serve it."""
    conf = {
        "issuer": issuer,
        "keys": {
            "uri_path": "jwks.json",
            "key_defs": [{"type": "RSA", "use": ["sig"]}],
            "private_path": os.path.join(directory, "signing-jwks.json"),
            "read_only": False,
        },
        "endpoint": {
            "provider_config": {
                "path": ".well-known/openid-configuration",
                "class": "idpyoidc.server.oidc.provider_config.ProviderConfiguration",
                "kwargs": {},
            },
            "authorization": {
                "path": "authorization",
                "class": "idpyoidc.server.oauth2.authorization.Authorization",
                "kwargs": {},
            },
            "token": {
                "path": "token",
                "class": "idpyoidc.server.oauth2.token.Token",
                "kwargs": {
                    "client_authn_method": ["client_secret_basic", "client_secret_post"],
                    "grant_types_helpers": {
                        EXCHANGE: {
                            "class": "idpyoidc.server.oauth2.token_helper.token_exchange.TokenExchangeHelper",
                            "kwargs": {
                                "subject_token_types_supported": [ACCESS_TOKEN_TYPE],
                                "requested_token_types_supported": [ACCESS_TOKEN_TYPE],
                                "default_requested_token_type": ACCESS_TOKEN_TYPE,
                                "policy": {
                                    "": {
                                        "function": "idpyoidc.server.oauth2.token_helper.validate_token_exchange_policy",
                                        "kwargs": {"audience": [AUDIENCE], "scope": ["read"]},
                                    }
                                },
                            },
                        },
                    },
                },
            },
        },
        "authentication": {
            "anon": {
                "acr": INTERNETPROTOCOLPASSWORD,
                "class": "idpyoidc.server.user_authn.user.NoAuthn",
                "kwargs": {"user": USERNAME},
            }
        },
        "userinfo": {
            "class": "idpyoidc.server.user_info.UserInfo",
            "kwargs": {"db": {USERNAME: {"sub": USERNAME, "name": "Jo Doe", "email": "jo@example.com"}}},
        },
        "token_handler_args": {
            "jwks_def": {
                "private_path": os.path.join(directory, "token-jwks.json"),
                "read_only": False,
                "key_defs": [{"type": "oct", "bytes": 24, "use": ["enc"], "kid": "code"}],
            },
            "code": {"lifetime": 600},
            "token": {
                "class": "idpyoidc.server.token.jwt_token.JWTToken",
                "kwargs": {"lifetime": 3600, "alg": "RS256"},
            },
            "refresh": {
                "class": "idpyoidc.server.token.jwt_token.JWTToken",
                "kwargs": {"lifetime": 86400, "alg": "RS256"},
            },
        },
        "client_authn": verify_client,
        "authz": {
            "class": "idpyoidc.server.authz.AuthzHandling",
            "kwargs": {
                "grant_config": {
                    "usage_rules": {
                        "authorization_code": {"supports_minting": ["access_token"], "max_usage": 1},
                        # An access token may be exchanged for another (RFC 8693); idpyoidc's default forbids it.
                        "access_token": {"supports_minting": ["access_token"], "expires_in": 3600},
                    },
                    "expires_in": 43200,
                }
            },
        },
    }
    return Server(ASConfiguration(conf=conf, base_path=directory), cwd=directory)


def register_clients(context, gateway_secret, app_secret):
    # The app the user signed in to (the subject token's client), and the gateway that trades that token for one for
    # the API: the token exchange grant only, with a secret.
    context.cdb["idflow-app"] = {
        "client_id": "idflow-app",
        "client_secret": app_secret,
        "redirect_uris": [("http://127.0.0.1/callback", None)],
        "token_endpoint_auth_method": "client_secret_basic",
        "grant_types_supported": ["authorization_code"],
        "response_types": ["code"],
        "allowed_scopes": SCOPES,
    }
    context.cdb["idflow-gateway"] = {
        "client_id": "idflow-gateway",
        "client_secret": gateway_secret,
        "token_endpoint_auth_method": "client_secret_basic",
        "grant_types_supported": [EXCHANGE],
        "allowed_scopes": SCOPES,
    }


def mint_subject_token(server):
    """User jo's access token for idflow-app, minted as idpyoidc's own tests do (no browser sign-in here)."""
    context = server.context
    manager = context.session_manager
    request = AuthorizationRequest(
        client_id="idflow-app",
        redirect_uri="http://127.0.0.1/callback",
        scope=SCOPES,
        state="start",
        response_type="code",
    )
    session_id = manager.create_session(
        create_authn_event(USERNAME), request, USERNAME, client_id="idflow-app", sub_type="public"
    )
    grant = context.authz(session_id, request)
    token_endpoint = server.get_endpoint("token")
    helper = token_endpoint.grant_type_helper[EXCHANGE]
    token = helper._mint_token(
        token_class="access_token",
        grant=grant,
        session_id=session_id,
        client_id="idflow-app",
        scope=SCOPES,
        token_type="Bearer",
    )
    return token.value


def make_handler(server, log):
    endpoints = {"/" + endpoint.endpoint_path: endpoint for endpoint in server.endpoint.values()}

    class Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def log_message(self, format, *args):
            log.write("%s %s\n" % (self.log_date_time_string(), format % args))
            log.flush()

        def answer(self, status, body, content_type="application/json", headers=()):
            data = body.encode() if isinstance(body, str) else body
            self.send_response(status)
            self.send_header("Content-Type", content_type)
            self.send_header("Content-Length", str(len(data)))
            self.send_header("Cache-Control", "no-store")
            for name, value in headers:
                if name.lower() not in ("content-type", "content-length", "cache-control"):
                    self.send_header(name, value)
            self.end_headers()
            self.wfile.write(data)

        def do_GET(self):
            path = urllib.parse.urlsplit(self.path).path
            if path == "/jwks.json":
                self.answer(200, json.dumps(server.keyjar.export_jwks()))
            elif path == "/.well-known/openid-configuration":
                self.call(endpoints[path], {})
            else:
                self.answer(404, json.dumps({"error": "not_found"}))

        def do_POST(self):
            path = urllib.parse.urlsplit(self.path).path
            length = int(self.headers.get("Content-Length") or 0)
            body = self.rfile.read(length).decode()
            if path != "/token":
                self.answer(404, json.dumps({"error": "not_found"}))
                return
            form = {}
            for name, value in urllib.parse.parse_qsl(body, keep_blank_values=True):
                # RFC 8693 §2.1: resource and audience may repeat; every other parameter is single.
                if name in ("resource", "audience"):
                    form.setdefault(name, []).append(value)
                else:
                    form[name] = value
            http_info = {"headers": {"authorization": self.headers.get("Authorization")}} if self.headers.get("Authorization") else {}
            self.call(endpoints[path], form, http_info)

        def call(self, endpoint, request, http_info=None):
            try:
                parsed = endpoint.parse_request(request, http_info=http_info or {})
                if "error" in parsed:
                    args = {"error": parsed["error"], "error_description": parsed.get("error_description", "")}
                    status = 401 if parsed["error"] == "invalid_client" else 400
                    self.answer(status, json.dumps(args))
                    return
                result = endpoint.process_request(parsed)
                if "error" in result:
                    self.answer(400, json.dumps({k: result[k] for k in ("error", "error_description") if k in result}))
                    return
                response = endpoint.do_response(request=parsed, **result)
                self.answer(200, response["response"], headers=response.get("http_headers", []))
            except (UnAuthorizedClient, ClientAuthenticationError) as error:
                # RFC 6749 §5.2: a client that failed to authenticate is answered 401 invalid_client.
                self.answer(401, json.dumps({"error": "invalid_client", "error_description": str(error)}))
            except Exception:
                log.write(traceback.format_exc())
                log.flush()
                self.answer(500, json.dumps({"error": "server_error"}))

    return Handler


def watch(pid, httpd):
    while True:
        try:
            os.kill(pid, 0)
        except ProcessLookupError:
            httpd.shutdown()
            return
        except PermissionError:
            pass
        time.sleep(1)


def main():
    directory = os.path.abspath(sys.argv[1])
    watched = int(sys.argv[2]) if len(sys.argv) > 2 and sys.argv[2] else None
    os.umask(0o077)
    os.makedirs(directory, exist_ok=True)
    # Port 0: the kernel picks a free port, so there is nothing to race for.
    httpd = ThreadingHTTPServer(("127.0.0.1", 0), BaseHTTPRequestHandler)
    port = httpd.server_address[1]
    issuer = "http://127.0.0.1:%d" % port
    server = build_server(directory, issuer)
    gateway_secret = secrets.token_hex(24)
    app_secret = secrets.token_hex(24)
    register_clients(server.context, gateway_secret, app_secret)
    write_secret(os.path.join(directory, "gateway-secret"), gateway_secret)
    write_secret(os.path.join(directory, "subject-token"), mint_subject_token(server))
    log = open(os.path.join(directory, "provider.log"), "a")
    httpd.RequestHandlerClass = make_handler(server, log)
    info = {
        "issuer": issuer,
        "port": port,
        "pid": os.getpid(),
        "dir": directory,
        "clientId": "idflow-gateway",
        "clientSecretFile": os.path.join(directory, "gateway-secret"),
        "subjectTokenFile": os.path.join(directory, "subject-token"),
        "subjectClientId": "idflow-app",
        "username": USERNAME,
        "audience": AUDIENCE,
        "exchangedScope": "read",
        "log": os.path.join(directory, "provider.log"),
    }
    # Written last and renamed into place: start.sh takes its appearance to mean the server answers.
    write_secret(os.path.join(directory, "provider.json.tmp"), json.dumps(info))
    os.replace(os.path.join(directory, "provider.json.tmp"), os.path.join(directory, "provider.json"))
    if watched:
        threading.Thread(target=watch, args=(watched, httpd), daemon=True).start()
    httpd.serve_forever()


if __name__ == "__main__":
    main()
