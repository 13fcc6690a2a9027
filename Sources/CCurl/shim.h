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

#ifdef IDFLOW_HAVE_OPENSSL
static inline int idflow_tls_peer_index(void) {
    static int index = -1;
    if (index < 0) index = SSL_CTX_get_ex_new_index(0, NULL, NULL, NULL, NULL);
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

static inline void idflow_tls_record(idflow_tls_peer *peer, X509 *cert) {
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

/// OpenSSL's verify callback: records, returns `ok` unchanged.
static inline int idflow_tls_verify(int ok, X509_STORE_CTX *store) {
    SSL *ssl = X509_STORE_CTX_get_ex_data(store, SSL_get_ex_data_X509_STORE_CTX_idx());
    idflow_tls_peer *peer = ssl ? SSL_CTX_get_ex_data(SSL_get_SSL_CTX(ssl), idflow_tls_peer_index()) : NULL;
    if (peer == NULL) return ok;
    peer->handshake = 1;
    if (!ok && peer->verify_error == 0) {
        peer->verify_error = X509_STORE_CTX_get_error(store);
        idflow_tls_record(peer, X509_STORE_CTX_get_current_cert(store));
    } else if (ok && peer->verify_error == 0 && X509_STORE_CTX_get_error_depth(store) == 0) {
        idflow_tls_record(peer, X509_STORE_CTX_get_current_cert(store));
    }
    return ok;
}

/// CURLOPT_SSL_CTX_FUNCTION: keeps libcurl's verify mode (peer verification on) and adds the recording callback.
static inline CURLcode idflow_tls_context(CURL *handle, void *context, void *peer) {
    (void)handle;
    SSL_CTX_set_ex_data((SSL_CTX *)context, idflow_tls_peer_index(), peer);
    SSL_CTX_set_verify((SSL_CTX *)context, SSL_CTX_get_verify_mode((SSL_CTX *)context), idflow_tls_verify);
    return CURLE_OK;
}

/// Installs the recording callback on a handle; `peer` must outlive the transfer.
static inline CURLcode idflow_curl_easy_watch_tls(CURL *handle, idflow_tls_peer *peer) {
    CURLcode code = curl_easy_setopt(handle, CURLOPT_SSL_CTX_FUNCTION, idflow_tls_context);
    if (code != CURLE_OK) return code;
    return curl_easy_setopt(handle, CURLOPT_SSL_CTX_DATA, (void *)peer);
}

#else
static inline int idflow_tls_peer_index(void) { return 0; }

/// Without OpenSSL's headers there is no callback to install; failures keep libcurl's own words.
static inline CURLcode idflow_curl_easy_watch_tls(CURL *handle, idflow_tls_peer *peer) {
    (void)handle;
    (void)peer;
    return CURLE_NOT_BUILT_IN;
}
#endif

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
