#!/usr/bin/env bash
# The TLS verify callback of Sources/CCurl/CCurl.c under AddressSanitizer (and UBSan), against a server that
# renegotiates on reused connections (Sources/CRenegotiatingServer). A C harness, not an ASan build of the whole
# package: it drives the shim exactly as CurlTransfer does, builds in seconds, and so runs in every CI.
# Exit 0 when the harness's checks held and the sanitizers reported nothing.
set -euo pipefail
cd "$(dirname "$0")/.."

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# A CA and a certificate for localhost/127.0.0.1 signed by it.
openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:P-256 -nodes -days 2 -subj "/O=idflow/CN=Renegotiation Test CA" \
    -keyout "$work/ca.key" -out "$work/ca.pem" -addext basicConstraints=critical,CA:TRUE \
    -addext keyUsage=critical,keyCertSign,cRLSign 2>/dev/null
openssl req -newkey ec -pkeyopt ec_paramgen_curve:P-256 -nodes -subj "/CN=localhost" \
    -keyout "$work/server.key" -out "$work/server.csr" 2>/dev/null
printf 'subjectAltName=DNS:localhost,IP:127.0.0.1\nextendedKeyUsage=serverAuth\n' >"$work/server.ext"
openssl x509 -req -in "$work/server.csr" -CA "$work/ca.pem" -CAkey "$work/ca.key" -CAcreateserial -days 2 \
    -extfile "$work/server.ext" -out "$work/server.pem" 2>/dev/null

"${CC:-cc}" -std=gnu11 -g -O1 -fno-omit-frame-pointer -fsanitize=address,undefined -fno-sanitize-recover=all \
    -I Sources/CCurl/include -I Sources/CRenegotiatingServer/include \
    scripts/asan-tls/harness.c Sources/CCurl/CCurl.c Sources/CRenegotiatingServer/renegotiating_server.c \
    -o "$work/harness" -lcurl -lssl -lcrypto -lpthread -ldl

# detect_leaks=0: libcurl and OpenSSL keep one-time global allocations that are not this check's subject.
ASAN_OPTIONS=detect_leaks=0:abort_on_error=0:halt_on_error=1 UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1 \
    "$work/harness" "$work/server.pem" "$work/server.key" "$work/ca.pem"
