// The TLS-watching part of CCurl's shim under AddressSanitizer, driven as CurlTransfer drives it: each transfer
// makes a record, hands it to libcurl, copies it out and lets go of it when the transfer ends, while libcurl keeps
// the connection for the next transfer. The peer is the renegotiating test server, so a connection that is reused
// gets a HelloRequest: a callback that wrote into a released record would be reported as a heap-use-after-free.
//
// Built and run by scripts/asan-tls.sh: harness CERT KEY CA. Exit 0 when every check held.
#include "renegotiating_server.h"
#include "CCurl.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int failures = 0;

static void check(int condition, const char *what) {
    if (!condition) {
        fprintf(stderr, "FAILED: %s\n", what);
        failures++;
    }
}

static size_t discard(char *data, size_t size, size_t count, void *context) {
    (void)data;
    (void)context;
    return size * count;
}

/// One transfer through the multi handle, as the transport's loop runs it; returns the HTTP status (0 on a
/// failure) and copies what the verify callback recorded into `seen`.
static long transfer(CURLM *multi, CURL *easy, const char *url, const char *ca, idflow_tls_peer *seen) {
    idflow_tls_record *record = idflow_tls_record_new();
    curl_easy_setopt(easy, CURLOPT_URL, url);
    curl_easy_setopt(easy, CURLOPT_CAINFO, ca);
    curl_easy_setopt(easy, CURLOPT_WRITEFUNCTION, discard);
    curl_easy_setopt(easy, CURLOPT_SSL_VERIFYPEER, 1L);
    curl_easy_setopt(easy, CURLOPT_SSL_VERIFYHOST, 2L);
    check(idflow_curl_easy_watch_tls(easy, record) == CURLE_OK, "the recording callback is installed");
    curl_multi_add_handle(multi, easy);
    int running = 1;
    while (running) {
        curl_multi_perform(multi, &running);
        if (running) curl_multi_poll(multi, NULL, 0, 1000, NULL);
    }
    int queued = 0;
    CURLcode result = CURLE_OK;
    for (CURLMsg *message; (message = curl_multi_info_read(multi, &queued)) != NULL;) {
        if (message->msg == CURLMSG_DONE) result = idflow_curl_msg_result(message);
    }
    curl_multi_remove_handle(multi, easy);
    // What CurlTransfer.finish does: copy, let go, and make the pooled handle forget the record.
    *seen = record->peer;
    idflow_tls_record_release(record);
    idflow_curl_easy_unwatch_tls(easy);
    long status = 0;
    if (result == CURLE_OK) curl_easy_getinfo(easy, CURLINFO_RESPONSE_CODE, &status);
    else fprintf(stderr, "%s: %s\n", url, curl_easy_strerror(result));
    return status;
}

int main(int argc, char **argv) {
    if (argc != 4) {
        fprintf(stderr, "usage: %s CERT KEY CA\n", argv[0]);
        return 2;
    }
    char error[256] = {0};
    idflow_renegotiating_server *server = idflow_renegotiating_server_start(argv[1], argv[2], error, sizeof error);
    if (server == NULL) {
        fprintf(stderr, "server: %s\n", error);
        return 2;
    }
    check(idflow_curl_load() == NULL, "libcurl is loaded");
    CURLM *multi = curl_multi_init();
    CURL *easy = curl_easy_init();
    char url[128];
    idflow_tls_peer seen;

    snprintf(url, sizeof url, "https://localhost:%d/redirect", idflow_renegotiating_server_port(server));
    check(transfer(multi, easy, url, argv[3], &seen) == 302, "the first request is answered with a redirect");
    check(seen.handshake == 1 && seen.verify_error == 0, "the first request's handshake was recorded as verified");
    check(strstr(seen.issuer, "Renegotiation Test CA") != NULL, "the record names the certificate's issuer");

    // The second and third requests reuse the connection: the server asks for a renegotiation before answering.
    for (int round = 0; round < 2; round++) {
        snprintf(url, sizeof url, "https://localhost:%d/after-redirect", idflow_renegotiating_server_port(server));
        check(transfer(multi, easy, url, argv[3], &seen) == 200, "a request after a renegotiation attempt is answered");
    }
    idflow_renegotiating_server_counts counts = idflow_renegotiating_server_counts_now(server);
    check(counts.renegotiations_asked >= 1, "the server asked for a renegotiation on a reused connection");
    check(counts.renegotiations_completed == 0, "the client refused every renegotiation");

    curl_easy_cleanup(easy);
    curl_multi_cleanup(multi);
    idflow_renegotiating_server_stop(server);
    curl_global_cleanup();
    printf("asan-tls: %d requests, %d connections, %d renegotiations asked, %d completed, %d refused\n", counts.requests,
           counts.connections, counts.renegotiations_asked, counts.renegotiations_completed, counts.renegotiations_refused);
    if (failures == 0) printf("asan-tls: 1 passed, 0 failed\n");
    return failures == 0 ? 0 : 1;
}
