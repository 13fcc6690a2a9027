// libcurl for Swift: curl_easy_setopt, curl_easy_getinfo and curl_multi_setopt are C variadics, which Swift
// cannot call, so each argument type the transport uses gets a fixed-signature wrapper here.
#ifndef IDFLOW_CCURL_SHIM_H
#define IDFLOW_CCURL_SHIM_H

#include <curl/curl.h>
#if __has_include(<openssl/ssl.h>)
#define IDFLOW_HAVE_OPENSSL 1
#include <openssl/ssl.h>
#include <openssl/x509v3.h>
#endif
#include <arpa/inet.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/// The shape of CURLOPT_WRITEFUNCTION and CURLOPT_HEADERFUNCTION callbacks.
typedef size_t (*idflow_curl_data_callback)(char *data, size_t size, size_t count, void *context);

static inline CURLcode idflow_curl_easy_setopt_long(CURL *handle, CURLoption option, long value) {
    return curl_easy_setopt(handle, option, value);
}

static inline CURLcode idflow_curl_easy_setopt_offset(CURL *handle, CURLoption option, curl_off_t value) {
    return curl_easy_setopt(handle, option, value);
}

static inline CURLcode idflow_curl_easy_setopt_string(CURL *handle, CURLoption option, const char *value) {
    return curl_easy_setopt(handle, option, value);
}

static inline CURLcode idflow_curl_easy_setopt_pointer(CURL *handle, CURLoption option, void *value) {
    return curl_easy_setopt(handle, option, value);
}

static inline CURLcode idflow_curl_easy_setopt_list(CURL *handle, CURLoption option, struct curl_slist *value) {
    return curl_easy_setopt(handle, option, value);
}

static inline CURLcode idflow_curl_easy_setopt_data_callback(CURL *handle, CURLoption option, idflow_curl_data_callback value) {
    return curl_easy_setopt(handle, option, value);
}

static inline CURLcode idflow_curl_easy_getinfo_long(CURL *handle, CURLINFO info, long *value) {
    return curl_easy_getinfo(handle, info, value);
}

static inline CURLcode idflow_curl_easy_getinfo_offset(CURL *handle, CURLINFO info, curl_off_t *value) {
    return curl_easy_getinfo(handle, info, value);
}

static inline CURLMcode idflow_curl_multi_setopt_long(CURLM *handle, CURLMoption option, long value) {
    return curl_multi_setopt(handle, option, value);
}

// MARK: - What the server's certificate said
//
// libcurl reports a failed verification as one line of text ("SSL certificate problem: certificate has
// expired"), and nothing about the certificate it saw. To tell a user which certificate, issued by whom,
// valid until when and for which names, idflow watches OpenSSL's verification through a callback that
// records what it sees and returns OpenSSL's own verdict unchanged: it never accepts what OpenSSL refused.

/// The certificate a handshake stopped at (or, when verification passed, the server's own), as text.
typedef struct {
    /// 1 once a handshake ran on this transfer (a new connection), 0 when a cached connection was reused.
    int handshake;
    /// OpenSSL's X509_V_ERR_* for the first certificate that failed, 0 when every one passed.
    int verify_error;
    char subject[256];
    char issuer[256];
    char not_before[32];
    char not_after[32];
    /// The subjectAltName DNS names and IP addresses, comma-separated.
    char names[512];
} idflow_tls_peer;

/// One handshake's record, shared by the transfer that opened the connection and the connection itself (its
/// SSL_CTX). Each holds a reference and the last to let go frees it. libcurl keeps a connection after its
/// transfer ends, so the verify callback can run again later (a TLS 1.2 renegotiation, which is refused anyway):
/// it then writes into a record the connection still owns, never into memory a finished transfer gave back.
typedef struct {
    /// Updated with atomic builtins: the connection may be freed on another thread than the transfer.
    int references;
    idflow_tls_peer peer;
} idflow_tls_record;

/// A zeroed record with one reference (the caller's), or NULL when memory is exhausted.
static inline idflow_tls_record *idflow_tls_record_new(void) {
    idflow_tls_record *record = (idflow_tls_record *)calloc(1, sizeof *record);
    if (record != NULL) record->references = 1;
    return record;
}

static inline void idflow_tls_record_retain(idflow_tls_record *record) {
    __atomic_add_fetch(&record->references, 1, __ATOMIC_RELAXED);
}

static inline void idflow_tls_record_release(idflow_tls_record *record) {
    if (record != NULL && __atomic_sub_fetch(&record->references, 1, __ATOMIC_ACQ_REL) == 0) free(record);
}

#ifdef IDFLOW_HAVE_OPENSSL
/// OpenSSL calls this when an SSL_CTX (a connection's) is freed: the connection's reference goes with it.
static inline void idflow_tls_record_free(void *parent, void *pointer, CRYPTO_EX_DATA *data, int index, long argl, void *argp) {
    (void)parent;
    (void)data;
    (void)index;
    (void)argl;
    (void)argp;
    idflow_tls_record_release((idflow_tls_record *)pointer);
}

static inline int idflow_tls_peer_index(void) {
    static int index = -1;
    if (index < 0) index = SSL_CTX_get_ex_new_index(0, NULL, NULL, NULL, idflow_tls_record_free);
    return index;
}

static inline void idflow_tls_time(const ASN1_TIME *time, char *out, size_t size) {
    struct tm parsed;
    memset(&parsed, 0, sizeof parsed);
    if (time == NULL || ASN1_TIME_to_tm(time, &parsed) != 1) { out[0] = 0; return; }
    strftime(out, size, "%Y-%m-%dT%H:%M:%SZ", &parsed);
}

static inline void idflow_tls_append(char *out, size_t size, const char *text, size_t length) {
    size_t used = strlen(out);
    if (used > 0 && used + 2 < size) { strcat(out, ", "); used += 2; }
    if (used + length + 1 > size) return;
    memcpy(out + used, text, length);
    out[used + length] = 0;
}

static inline void idflow_tls_record_certificate(idflow_tls_peer *peer, X509 *cert) {
    if (cert == NULL) return;
    X509_NAME_oneline(X509_get_subject_name(cert), peer->subject, sizeof peer->subject);
    X509_NAME_oneline(X509_get_issuer_name(cert), peer->issuer, sizeof peer->issuer);
    idflow_tls_time(X509_get0_notBefore(cert), peer->not_before, sizeof peer->not_before);
    idflow_tls_time(X509_get0_notAfter(cert), peer->not_after, sizeof peer->not_after);
    peer->names[0] = 0;
    GENERAL_NAMES *names = X509_get_ext_d2i(cert, NID_subject_alt_name, NULL, NULL);
    if (names == NULL) return;
    for (int i = 0; i < sk_GENERAL_NAME_num(names); i++) {
        const GENERAL_NAME *name = sk_GENERAL_NAME_value(names, i);
        if (name->type == GEN_DNS) {
            idflow_tls_append(peer->names, sizeof peer->names, (const char *)ASN1_STRING_get0_data(name->d.dNSName),
                              (size_t)ASN1_STRING_length(name->d.dNSName));
        } else if (name->type == GEN_IPADD) {
            char text[INET6_ADDRSTRLEN] = {0};
            int length = ASN1_STRING_length(name->d.iPAddress);
            const unsigned char *bytes = ASN1_STRING_get0_data(name->d.iPAddress);
            if (length == 4) inet_ntop(AF_INET, bytes, text, sizeof text);
            if (length == 16) inet_ntop(AF_INET6, bytes, text, sizeof text);
            idflow_tls_append(peer->names, sizeof peer->names, text, strlen(text));
        }
    }
    GENERAL_NAMES_free(names);
}

/// OpenSSL's verify callback: records into the connection's record, returns `ok` unchanged.
static inline int idflow_tls_verify(int ok, X509_STORE_CTX *store) {
    SSL *ssl = X509_STORE_CTX_get_ex_data(store, SSL_get_ex_data_X509_STORE_CTX_idx());
    idflow_tls_record *record = ssl ? SSL_CTX_get_ex_data(SSL_get_SSL_CTX(ssl), idflow_tls_peer_index()) : NULL;
    if (record == NULL) return ok;
    idflow_tls_peer *peer = &record->peer;
    peer->handshake = 1;
    if (!ok && peer->verify_error == 0) {
        peer->verify_error = X509_STORE_CTX_get_error(store);
        idflow_tls_record_certificate(peer, X509_STORE_CTX_get_current_cert(store));
    } else if (ok && peer->verify_error == 0 && X509_STORE_CTX_get_error_depth(store) == 0) {
        idflow_tls_record_certificate(peer, X509_STORE_CTX_get_current_cert(store));
    }
    return ok;
}

/// CURLOPT_SSL_CTX_FUNCTION, called once per new connection (before its handshake): refuses renegotiation, keeps
/// libcurl's verify mode (peer verification on) and adds the recording callback. The connection takes its own
/// reference to the transfer's record; OpenSSL drops it (`idflow_tls_record_free`) when the connection goes.
static inline CURLcode idflow_tls_context(CURL *handle, void *context, void *record) {
    (void)handle;
    SSL_CTX *ssl = (SSL_CTX *)context;
#ifdef SSL_OP_NO_RENEGOTIATION
    // A renegotiation would run the whole verification again mid-connection, with certificates the server picks
    // then; nothing idflow talks to needs one (TLS 1.3 has none), so the client answers no_renegotiation.
    SSL_CTX_set_options(ssl, SSL_OP_NO_RENEGOTIATION);
#endif
    if (record != NULL) {
        idflow_tls_record_retain((idflow_tls_record *)record);
        idflow_tls_record *previous = SSL_CTX_get_ex_data(ssl, idflow_tls_peer_index());
        if (SSL_CTX_set_ex_data(ssl, idflow_tls_peer_index(), record) != 1) {
            idflow_tls_record_release((idflow_tls_record *)record);
        } else {
            idflow_tls_record_release(previous);
        }
    }
    SSL_CTX_set_verify(ssl, SSL_CTX_get_verify_mode(ssl), idflow_tls_verify);
    return CURLE_OK;
}

/// Installs the recording callback on a handle for one transfer; the connection takes its own reference to
/// `record`, so the caller releases only its own (`idflow_curl_easy_unwatch_tls` when the transfer ends).
static inline CURLcode idflow_curl_easy_watch_tls(CURL *handle, idflow_tls_record *record) {
    CURLcode code = curl_easy_setopt(handle, CURLOPT_SSL_CTX_FUNCTION, idflow_tls_context);
    if (code != CURLE_OK) return code;
    return curl_easy_setopt(handle, CURLOPT_SSL_CTX_DATA, (void *)record);
}

#else
static inline int idflow_tls_peer_index(void) { return 0; }

/// Without OpenSSL's headers there is no callback to install; failures keep libcurl's own words.
static inline CURLcode idflow_curl_easy_watch_tls(CURL *handle, idflow_tls_record *record) {
    (void)handle;
    (void)record;
    return CURLE_NOT_BUILT_IN;
}
#endif

/// Ends a transfer's watch: the handle (kept in a pool for the next request) no longer names the record, so a
/// connection that handle opens later cannot reach it. The record itself lives while its connection does.
static inline void idflow_curl_easy_unwatch_tls(CURL *handle) {
    curl_easy_setopt(handle, CURLOPT_SSL_CTX_DATA, (void *)NULL);
}

/// curl_global_init with the default flags (a macro expression Swift does not import), and the one-time
/// OpenSSL index the certificate recorder needs (allocated here, before any thread can race for it).
static inline CURLcode idflow_curl_global_init(void) {
    CURLcode code = curl_global_init(CURL_GLOBAL_DEFAULT);
    (void)idflow_tls_peer_index();
    return code;
}

/// The CA bundle libcurl was built to use (CURLINFO_CAINFO, libcurl 7.84 and later), or NULL.
static inline const char *idflow_curl_default_ca_file(void) {
#if LIBCURL_VERSION_NUM >= 0x075400
    static char path[4096];
    CURL *handle = curl_easy_init();
    if (handle == NULL) return NULL;
    char *value = NULL;
    const char *result = NULL;
    if (curl_easy_getinfo(handle, CURLINFO_CAINFO, &value) == CURLE_OK && value != NULL && strlen(value) < sizeof path) {
        strcpy(path, value);
        result = path;
    }
    curl_easy_cleanup(handle);
    return result;
#else
    return NULL;
#endif
}

/// A PEM bundle in memory (CURLOPT_CAINFO_BLOB and CURLOPT_PROXY_CAINFO_BLOB); libcurl copies it.
static inline CURLcode idflow_curl_easy_setopt_blob(CURL *handle, CURLoption option, const void *data, size_t length) {
    struct curl_blob blob;
    blob.data = (void *)data;
    blob.len = length;
    blob.flags = CURL_BLOB_COPY;
    return curl_easy_setopt(handle, option, &blob);
}

/// Restricts a handle to http and https (CURLOPT_PROTOCOLS_STR from libcurl 7.85, the bitmask before).
static inline CURLcode idflow_curl_easy_allow_http_only(CURL *handle) {
#if LIBCURL_VERSION_NUM >= 0x075500
    return curl_easy_setopt(handle, CURLOPT_PROTOCOLS_STR, "http,https");
#else
    return curl_easy_setopt(handle, CURLOPT_PROTOCOLS, (long)(CURLPROTO_HTTP | CURLPROTO_HTTPS));
#endif
}

/// The result code of a finished transfer (a member of an anonymous union in CURLMsg).
static inline CURLcode idflow_curl_msg_result(const CURLMsg *message) {
    return message->data.result;
}

#endif
