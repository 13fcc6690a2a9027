// libcurl for Swift, loaded when the first request is made rather than when idflow starts.
//
// A command that sends nothing (`token inspect --offline`, `token get` with a valid token) should not pay for
// libcurl and the thirty libraries it brings (OpenSSL, GnuTLS, Kerberos, LDAP, …): mapping and relocating them was a
// third of such a command's start-up. So idflow does not link libcurl; `idflow_curl_load` opens it with dlopen the
// first time a transport starts, and every function here calls through what it found.
//
// The wrappers also give the C variadics (curl_easy_setopt, curl_easy_getinfo, curl_multi_setopt), which Swift
// cannot call, a fixed signature per argument type the transport uses.
#ifndef IDFLOW_CCURL_H
#define IDFLOW_CCURL_H

#include <curl/curl.h>
#include <stddef.h>

/// Opens libcurl (once per process; later calls return the first answer) and runs curl_global_init. NULL when
/// libcurl is ready, else why it is not (the library names tried, dlerror's words), for the user to install it.
const char *idflow_curl_load(void);

CURL *idflow_curl_easy_init(void);
void idflow_curl_easy_reset(CURL *handle);
void idflow_curl_easy_cleanup(CURL *handle);
const char *idflow_curl_easy_strerror(CURLcode code);
CURLcode idflow_curl_easy_setopt_long(CURL *handle, CURLoption option, long value);
CURLcode idflow_curl_easy_setopt_offset(CURL *handle, CURLoption option, curl_off_t value);
CURLcode idflow_curl_easy_setopt_string(CURL *handle, CURLoption option, const char *value);
CURLcode idflow_curl_easy_setopt_pointer(CURL *handle, CURLoption option, void *value);
CURLcode idflow_curl_easy_setopt_list(CURL *handle, CURLoption option, struct curl_slist *value);

/// The shape of CURLOPT_WRITEFUNCTION and CURLOPT_HEADERFUNCTION callbacks.
typedef size_t (*idflow_curl_data_callback)(char *data, size_t size, size_t count, void *context);
CURLcode idflow_curl_easy_setopt_data_callback(CURL *handle, CURLoption option, idflow_curl_data_callback value);
CURLcode idflow_curl_easy_getinfo_long(CURL *handle, CURLINFO info, long *value);
CURLcode idflow_curl_easy_getinfo_offset(CURL *handle, CURLINFO info, curl_off_t *value);
/// A PEM bundle in memory (CURLOPT_CAINFO_BLOB and CURLOPT_PROXY_CAINFO_BLOB); libcurl copies it.
CURLcode idflow_curl_easy_setopt_blob(CURL *handle, CURLoption option, const void *data, size_t length);
/// Restricts a handle to http and https (CURLOPT_PROTOCOLS_STR from libcurl 7.85, the bitmask before).
CURLcode idflow_curl_easy_allow_http_only(CURL *handle);
/// The CA bundle libcurl was built to use (CURLINFO_CAINFO, libcurl 7.84 and later), or NULL.
const char *idflow_curl_default_ca_file(void);

CURLM *idflow_curl_multi_init(void);
CURLMcode idflow_curl_multi_setopt_long(CURLM *handle, CURLMoption option, long value);
CURLMcode idflow_curl_multi_add_handle(CURLM *multi, CURL *handle);
CURLMcode idflow_curl_multi_remove_handle(CURLM *multi, CURL *handle);
CURLMcode idflow_curl_multi_perform(CURLM *multi, int *running);
CURLMcode idflow_curl_multi_poll(CURLM *multi, struct curl_waitfd *extra, unsigned int count, int timeout, int *ready);
CURLMcode idflow_curl_multi_wakeup(CURLM *multi);
CURLMcode idflow_curl_multi_timeout(CURLM *multi, long *milliseconds);
CURLMsg *idflow_curl_multi_info_read(CURLM *multi, int *left);
CURLMcode idflow_curl_multi_cleanup(CURLM *multi);
/// The result code of a finished transfer (a member of an anonymous union in CURLMsg).
CURLcode idflow_curl_msg_result(const CURLMsg *message);

struct curl_slist *idflow_curl_slist_append(struct curl_slist *list, const char *line);
void idflow_curl_slist_free_all(struct curl_slist *list);

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
idflow_tls_record *idflow_tls_record_new(void);
void idflow_tls_record_retain(idflow_tls_record *record);
void idflow_tls_record_release(idflow_tls_record *record);

/// Installs the recording callback on a handle for one transfer; the connection takes its own reference to
/// `record`, so the caller releases only its own (`idflow_curl_easy_unwatch_tls` when the transfer ends).
/// CURLE_NOT_BUILT_IN when the libcurl loaded does not use OpenSSL: failures then keep libcurl's own words.
CURLcode idflow_curl_easy_watch_tls(CURL *handle, idflow_tls_record *record);
/// Ends a transfer's watch: the handle (kept in a pool for the next request) no longer names the record, so a
/// connection that handle opens later cannot reach it. The record itself lives while its connection does.
void idflow_curl_easy_unwatch_tls(CURL *handle);

#endif
