// The renegotiating test server (see include/renegotiating_server.h): one thread accepts, one thread a connection.
#include "renegotiating_server.h"

#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <poll.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/socket.h>
#include <unistd.h>

#include <openssl/err.h>
#include <openssl/ssl.h>

enum { max_connections = 32, max_head = 16384 };

/// How long one read or the wait for a renegotiation answer may take: a safety net so that a client that
/// never answers cannot keep a test waiting for ever, not something any test measures.
static const int patience_ms = 30000;

struct idflow_renegotiating_server {
    SSL_CTX *context;
    int listener;
    int port;
    pthread_t acceptor;
    pthread_mutex_t lock;
    pthread_cond_t idle;
    int stopping;
    int active;
    int sockets[max_connections];
    idflow_renegotiating_server_counts counts;
};

typedef struct {
    idflow_renegotiating_server *server;
    int socket;
} connection;

static void count(idflow_renegotiating_server *server, int *counter) {
    pthread_mutex_lock(&server->lock);
    (*counter)++;
    pthread_mutex_unlock(&server->lock);
}

static int wait_readable(int socket) {
    struct pollfd entry = {.fd = socket, .events = POLLIN};
    return poll(&entry, 1, patience_ms) > 0;
}

/// Reads one request head (and discards a Content-Length body); the path is copied into `path`. 0 at EOF/error.
static int read_request(SSL *ssl, char *path, size_t path_size) {
    char head[max_head + 1];
    size_t used = 0;
    char *end = NULL;
    while (end == NULL) {
        if (used == max_head) return 0;
        int got = SSL_read(ssl, head + used, (int)(max_head - used));
        if (got <= 0) return 0;
        used += (size_t)got;
        head[used] = 0;
        end = strstr(head, "\r\n\r\n");
    }
    const char *start = strchr(head, ' ');
    const char *stop = start ? strchr(start + 1, ' ') : NULL;
    if (start == NULL || stop == NULL || (size_t)(stop - start - 1) >= path_size) return 0;
    memcpy(path, start + 1, (size_t)(stop - start - 1));
    path[stop - start - 1] = 0;
    long length = 0;
    for (char *line = strstr(head, "\r\n"); line != NULL && line < end; line = strstr(line + 2, "\r\n")) {
        if (strncasecmp(line + 2, "content-length:", 15) == 0) length = strtol(line + 17, NULL, 10);
    }
    long remaining = length - (long)(used - (size_t)(end + 4 - head));
    char sink[4096];
    while (remaining > 0) {
        int got = SSL_read(ssl, sink, remaining < (long)sizeof sink ? (int)remaining : (int)sizeof sink);
        if (got <= 0) return 0;
        remaining -= got;
    }
    return 1;
}

/// Asks for a renegotiation and waits for the client's answer: 1 when a second handshake completed, 0 when the
/// client refused it (OpenSSL turns the client's no_renegotiation alert into a fatal error) or went away.
static int renegotiate(SSL *ssl, int socket) {
    if (SSL_renegotiate(ssl) != 1 || SSL_do_handshake(ssl) != 1) return 0;
    int flags = fcntl(socket, F_GETFL);
    fcntl(socket, F_SETFL, flags | O_NONBLOCK);
    int completed = 0;
    for (;;) {
        char byte;
        int got = SSL_peek(ssl, &byte, 1);
        int error = got > 0 ? SSL_ERROR_NONE : SSL_get_error(ssl, got);
        if (!SSL_renegotiate_pending(ssl)) { completed = 1; break; }
        if (error != SSL_ERROR_WANT_READ && error != SSL_ERROR_WANT_WRITE && error != SSL_ERROR_NONE) break;
        if (!wait_readable(socket)) break;
    }
    fcntl(socket, F_SETFL, flags);
    return completed;
}

static int respond(SSL *ssl, int status, const char *location, const char *body) {
    char answer[1024];
    int length = snprintf(answer, sizeof answer,
                          "HTTP/1.1 %d %s\r\n%s%s%sContent-Type: application/json\r\nContent-Length: %zu\r\n\r\n%s",
                          status, status == 302 ? "Found" : "OK", location ? "Location: " : "", location ? location : "",
                          location ? "\r\n" : "", strlen(body), body);
    return SSL_write(ssl, answer, length) == length;
}

static void serve(idflow_renegotiating_server *server, int socket) {
    struct timeval patience = {.tv_sec = patience_ms / 1000};
    setsockopt(socket, SOL_SOCKET, SO_RCVTIMEO, &patience, sizeof patience);
    SSL *ssl = SSL_new(server->context);
    if (ssl == NULL) return;
    SSL_set_fd(ssl, socket);
    if (SSL_accept(ssl) == 1) {
        count(server, &server->counts.connections);
        char path[1024];
        for (int served = 0; read_request(ssl, path, sizeof path); served++) {
            count(server, &server->counts.requests);
            int renegotiated = 0;
            if (served > 0) {
                count(server, &server->counts.renegotiations_asked);
                renegotiated = renegotiate(ssl, socket);
                count(server, renegotiated ? &server->counts.renegotiations_completed
                                           : &server->counts.renegotiations_refused);
                if (!renegotiated) break;
            }
            int ok = strncmp(path, "/redirect", 9) == 0
                         ? respond(ssl, 302, "/after-redirect", "{}")
                         : respond(ssl, 200, NULL, renegotiated ? "{\"renegotiated\": true}" : "{\"renegotiated\": false}");
            if (!ok) break;
        }
        SSL_shutdown(ssl);
    }
    SSL_free(ssl);
    ERR_clear_error();
}

static void *run_connection(void *argument) {
    connection *accepted = argument;
    idflow_renegotiating_server *server = accepted->server;
    serve(server, accepted->socket);
    pthread_mutex_lock(&server->lock);
    for (int i = 0; i < max_connections; i++) {
        if (server->sockets[i] == accepted->socket) server->sockets[i] = -1;
    }
    close(accepted->socket);
    server->active--;
    pthread_cond_broadcast(&server->idle);
    pthread_mutex_unlock(&server->lock);
    free(accepted);
    return NULL;
}

static void *run_acceptor(void *argument) {
    idflow_renegotiating_server *server = argument;
    for (;;) {
        int socket = accept(server->listener, NULL, NULL);
        if (socket < 0) {
            if (errno == EINTR) continue;
            return NULL;
        }
        pthread_mutex_lock(&server->lock);
        int slot = -1;
        for (int i = 0; i < max_connections && slot < 0; i++) {
            if (server->sockets[i] < 0) slot = i;
        }
        connection *accepted = slot >= 0 && !server->stopping ? malloc(sizeof *accepted) : NULL;
        pthread_t thread;
        if (accepted != NULL) {
            accepted->server = server;
            accepted->socket = socket;
            server->sockets[slot] = socket;
            server->active++;
            if (pthread_create(&thread, NULL, run_connection, accepted) == 0) {
                pthread_detach(thread);
            } else {
                server->sockets[slot] = -1;
                server->active--;
                free(accepted);
                accepted = NULL;
            }
        }
        pthread_mutex_unlock(&server->lock);
        if (accepted == NULL) close(socket);
    }
}

static idflow_renegotiating_server *fail(idflow_renegotiating_server *server, char *error, size_t size, const char *what) {
    snprintf(error, size, "%s: %s", what, errno ? strerror(errno) : ERR_reason_error_string(ERR_get_error()));
    if (server->listener >= 0) close(server->listener);
    if (server->context) SSL_CTX_free(server->context);
    free(server);
    return NULL;
}

idflow_renegotiating_server *idflow_renegotiating_server_start(const char *certificate_file, const char *key_file,
                                                               char *error, size_t error_size) {
    idflow_renegotiating_server *server = calloc(1, sizeof *server);
    if (server == NULL) return NULL;
    server->listener = -1;
    for (int i = 0; i < max_connections; i++) server->sockets[i] = -1;
    errno = 0;
    server->context = SSL_CTX_new(TLS_server_method());
    if (server->context == NULL) return fail(server, error, error_size, "SSL_CTX_new");
    // TLS 1.3 has no renegotiation: the server holds the connection to 1.2, as an old gateway would.
    SSL_CTX_set_min_proto_version(server->context, TLS1_2_VERSION);
    SSL_CTX_set_max_proto_version(server->context, TLS1_2_VERSION);
    SSL_CTX_set_options(server->context, SSL_OP_NO_TICKET);
    SSL_CTX_set_session_cache_mode(server->context, SSL_SESS_CACHE_OFF);
    if (SSL_CTX_use_certificate_chain_file(server->context, certificate_file) != 1)
        return fail(server, error, error_size, certificate_file);
    if (SSL_CTX_use_PrivateKey_file(server->context, key_file, SSL_FILETYPE_PEM) != 1)
        return fail(server, error, error_size, key_file);
    server->listener = socket(AF_INET, SOCK_STREAM, 0);
    struct sockaddr_in address = {.sin_family = AF_INET, .sin_addr.s_addr = htonl(INADDR_LOOPBACK)};
    socklen_t length = sizeof address;
    if (server->listener < 0 || bind(server->listener, (struct sockaddr *)&address, sizeof address) != 0 ||
        listen(server->listener, 16) != 0 || getsockname(server->listener, (struct sockaddr *)&address, &length) != 0)
        return fail(server, error, error_size, "listen on 127.0.0.1");
    server->port = ntohs(address.sin_port);
    pthread_mutex_init(&server->lock, NULL);
    pthread_cond_init(&server->idle, NULL);
    if (pthread_create(&server->acceptor, NULL, run_acceptor, server) != 0) {
        pthread_mutex_destroy(&server->lock);
        pthread_cond_destroy(&server->idle);
        return fail(server, error, error_size, "pthread_create");
    }
    return server;
}

int idflow_renegotiating_server_port(const idflow_renegotiating_server *server) { return server->port; }

idflow_renegotiating_server_counts idflow_renegotiating_server_counts_now(idflow_renegotiating_server *server) {
    pthread_mutex_lock(&server->lock);
    idflow_renegotiating_server_counts counts = server->counts;
    pthread_mutex_unlock(&server->lock);
    return counts;
}

void idflow_renegotiating_server_stop(idflow_renegotiating_server *server) {
    pthread_mutex_lock(&server->lock);
    server->stopping = 1;
    pthread_mutex_unlock(&server->lock);
    shutdown(server->listener, SHUT_RDWR);
    pthread_join(server->acceptor, NULL);
    close(server->listener);
    pthread_mutex_lock(&server->lock);
    for (int i = 0; i < max_connections; i++) {
        if (server->sockets[i] >= 0) shutdown(server->sockets[i], SHUT_RDWR);
    }
    while (server->active > 0) pthread_cond_wait(&server->idle, &server->lock);
    pthread_mutex_unlock(&server->lock);
    pthread_mutex_destroy(&server->lock);
    pthread_cond_destroy(&server->idle);
    SSL_CTX_free(server->context);
    free(server);
}
