// A hostile HTTPS server for tests: TLS 1.2 only, and it renegotiates on every connection that is reused.
//
// A client's verify callback runs again during a renegotiation, on a connection an earlier request opened. The
// TLS-watching code in CCurl once wrote into the buffer of the transfer that had opened the connection, freed by
// then; this server is the peer that reaches that path, for the end-to-end tests (through the built idflow) and
// for the AddressSanitizer harness of the shim (scripts/asan-tls.sh), which compiles this file as it is.
#ifndef IDFLOW_RENEGOTIATING_SERVER_H
#define IDFLOW_RENEGOTIATING_SERVER_H

#include <stddef.h>

typedef struct idflow_renegotiating_server idflow_renegotiating_server;

/// What the server saw, counted since it started.
typedef struct {
    /// HTTP requests read.
    int requests;
    /// TLS connections accepted (handshakes completed at connect).
    int connections;
    /// Renegotiations the server asked for (a HelloRequest on a reused connection).
    int renegotiations_asked;
    /// Renegotiations the client went through with: a second handshake completed on the same connection.
    int renegotiations_completed;
    /// Renegotiations the client refused (its no_renegotiation alert) or broke off.
    int renegotiations_refused;
} idflow_renegotiating_server_counts;

/// Starts the server on 127.0.0.1 (a free port), serving `certificate_file` with `key_file` (PEM). Answers:
/// `/redirect…` → 302 to `/after-redirect` on the same connection (keep-alive); anything else → 200 with
/// `{"renegotiated": true|false}`. Before answering a request on a connection that has already served one, it
/// sends a HelloRequest and waits for the client's answer. NULL on failure, with the reason in `error`.
idflow_renegotiating_server *idflow_renegotiating_server_start(const char *certificate_file, const char *key_file,
                                                               char *error, size_t error_size);

/// The port the server listens on.
int idflow_renegotiating_server_port(const idflow_renegotiating_server *server);

/// A consistent copy of the counters.
idflow_renegotiating_server_counts idflow_renegotiating_server_counts_now(idflow_renegotiating_server *server);

/// Stops accepting, ends every open connection, waits for their threads and frees the server.
void idflow_renegotiating_server_stop(idflow_renegotiating_server *server);

#endif
