#!/usr/bin/env python3
"""Writes Fuzz/idflow.dict, the libFuzzer dictionary every target gets: the keys and string values of the recorded
protocol documents (Tests/Fixtures), plus the headers, separators and syntax the parsers look for. Run again when
fixtures are added; the output is checked in."""
import json, os, pathlib

root = pathlib.Path(__file__).resolve().parent.parent
words = set()

def walk(value):
    if isinstance(value, dict):
        for key, member in value.items():
            words.add(key)
            walk(member)
    elif isinstance(value, list):
        for item in value:
            walk(item)
    elif isinstance(value, str) and len(value) <= 40 and "\n" not in value:
        words.add(value)

for path in sorted((root / "Tests" / "Fixtures").rglob("*.json")):
    try:
        walk(json.loads(path.read_text()))
    except ValueError:
        pass

words |= {
    "\n----\n", "\r\n\r\n", "GET ", "POST ", "PUT ", "DELETE ", "PATCH ", " HTTP/1.1\r\n", "?", "&", "=", "%", "#", "/callback",
    "X-Rate-Limit-Limit: ", "X-Rate-Limit-Remaining: ", "X-Rate-Limit-Reset: ", "Retry-After: ", "Date: ", "WWW-Authenticate: ",
    "DPoP-Nonce: ", "DPoP: ", "Content-Type: ", "Authorization: ", "Bearer ", "DPoP ", "SSWS ", "Basic ", "error=", "scope=", "realm=",
    "use_dpop_nonce", "insufficient_scope", "invalid_token", "application/json", "application/x-www-form-urlencoded",
    "application/ion+json; okta-version=1.0.0", " eq ", " sw ", " gt ", " lt ", " ge ", " le ", " pr", " and ", " or ", " not ", "(", ")",
    "search=", "filter=", "limit=", "after=", "q=", "profile.", "status", "lastUpdated", "{user}", "1e309", "-1e309", "9223372036854775807",
    "-9223372036854775808", "NaN", "inf", "---\n", "&a", "*a", "!!str", "!!binary", "<<: ", "- ", ": ", "'", "\"", "\\u0000", "\\ud800",
}

def escape(word):
    return "".join(c if 0x20 <= ord(c) < 0x7F and c not in "\"\\" else "".join(f"\\x{b:02X}" for b in c.encode()) for c in word)

lines = [f'"{escape(word)}"' for word in sorted(words) if word and len(word.encode()) <= 64]
(root / "Fuzz" / "idflow.dict").write_text("# Made by Fuzz/make-dictionary.py from Tests/Fixtures; do not edit by hand.\n" + "\n".join(lines) + "\n")
print(len(lines), "entries")
