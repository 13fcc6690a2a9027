// libcurl and the OpenSSL calls of the certificate recorder, reached through dlopen/dlsym (see CCurl.h for why).
//
// Each pointer is declared with the type of the function it stands for (`__typeof__` of the header's own
// declaration), so the compiler checks every call as if libcurl were linked. After `idflow_curl_load` the names
// below (`curl_easy_setopt`, `SSL_CTX_get_ex_data`, …) are macros for those pointers, and the code reads as it did
// when it called libcurl directly.
// curl.h makes curl_easy_setopt and friends type-checking macros; here they are the loaded pointers instead.
#define CURL_DISABLE_TYPECHECK 1
#include "CCurl.h"

#include <arpa/inet.h>
#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#if __has_include(<openssl/ssl.h>)
#define IDFLOW_HAVE_OPENSSL 1
#include <openssl/ssl.h>
#include <openssl/x509v3.h>
#endif

// MARK: - Loading

#define IDFLOW_CURL_FUNCTIONS(X)                                                                                    \
    X(curl_global_init)                                                                                             \
    X(curl_easy_init)                                                                                               \
    X(curl_easy_reset)                                                                                              \
    X(curl_easy_cleanup)                                                                                            \
    X(curl_easy_strerror)                                                                                           \
    X(curl_easy_setopt)                                                                                             \
    X(curl_easy_getinfo)                                                                                            \
    X(curl_multi_init)                                                                                              \
    X(curl_multi_setopt)                                                                                            \
    X(curl_multi_add_handle)                                                                                        \
    X(curl_multi_remove_handle)                                                                                     \
    X(curl_multi_perform)                                                                                           \
    X(curl_multi_poll)                                                                                              \
    X(curl_multi_wakeup)                                                                                            \
    X(curl_multi_timeout)                                                                                           \
    X(curl_multi_info_read)                                                                                         \
    X(curl_multi_cleanup)                                                                                           \
    X(curl_slist_append)                                                                                            \
    X(curl_slist_free_all)

#ifdef IDFLOW_HAVE_OPENSSL
#define IDFLOW_OPENSSL_FUNCTIONS(X)                                                                                 \
    X(CRYPTO_get_ex_new_index)                                                                                      \
    X(SSL_CTX_get_ex_data)                                                                                          \
    X(SSL_CTX_set_ex_data)                                                                                          \
    X(SSL_CTX_set_options)                                                                                          \
    X(SSL_CTX_set_verify)                                                                                           \
    X(SSL_CTX_get_verify_mode)                                                                                      \
    X(SSL_get_SSL_CTX)                                                                                              \
    X(SSL_get_ex_data_X509_STORE_CTX_idx)                                                                           \
    X(X509_STORE_CTX_get_ex_data)                                                                                   \
    X(X509_STORE_CTX_get_error)                                                                                     \
    X(X509_STORE_CTX_get_error_depth)                                                                               \
    X(X509_STORE_CTX_get_current_cert)                                                                              \
    X(X509_NAME_oneline)                                                                                            \
    X(X509_get_subject_name)                                                                                        \
    X(X509_get_issuer_name)                                                                                         \
    X(X509_get0_notBefore)                                                                                          \
    X(X509_get0_notAfter)                                                                                           \
    X(X509_get_ext_d2i)                                                                                             \
    X(ASN1_TIME_to_tm)                                                                                              \
    X(ASN1_STRING_get0_data)                                                                                        \
    X(ASN1_STRING_length)                                                                                           \
    X(OPENSSL_sk_num)                                                                                               \
    X(OPENSSL_sk_value)                                                                                             \
    X(GENERAL_NAMES_free)
#else
#define IDFLOW_OPENSSL_FUNCTIONS(X)
#endif

#define IDFLOW_DECLARE_POINTER(name) static __typeof__(&name) idflow_loaded_##name;
IDFLOW_CURL_FUNCTIONS(IDFLOW_DECLARE_POINTER)
IDFLOW_OPENSSL_FUNCTIONS(IDFLOW_DECLARE_POINTER)

/// 1 when every OpenSSL function the recorder calls was found beside libcurl (a libcurl built on OpenSSL).
static int idflow_have_openssl_functions;
static pthread_once_t idflow_load_once = PTHREAD_ONCE_INIT;
static const char *idflow_load_error;
static char idflow_load_message[1024];

/// The names libcurl's runtime library goes by: the ABI's soname first (Linux), then the development link and
/// macOS's system library.
static const char *const idflow_curl_library_names[] = {
    "libcurl.so.4", "libcurl.so", "libcurl.4.dylib", "/usr/lib/libcurl.4.dylib",
};

static void idflow_load(void) {
    void *library = NULL;
    const char *reason = "";
    for (size_t i = 0; library == NULL && i < sizeof idflow_curl_library_names / sizeof idflow_curl_library_names[0]; i++) {
        // RTLD_GLOBAL: OpenSSL, loaded as libcurl's dependency, is then found by name below.
        library = dlopen(idflow_curl_library_names[i], RTLD_NOW | RTLD_GLOBAL);
        if (library == NULL && i == 0) {
            const char *error = dlerror();
            reason = error ? error : "";
        }
    }
    if (library == NULL) {
        snprintf(idflow_load_message, sizeof idflow_load_message,
                 "libcurl could not be loaded (tried libcurl.so.4, libcurl.so, libcurl.4.dylib: %s); install libcurl "
                 "(Debian and Ubuntu: apt-get install libcurl4)",
                 reason);
        idflow_load_error = idflow_load_message;
        return;
    }
    const char *missing = NULL;
#define IDFLOW_RESOLVE_CURL(name)                                                                                   \
    idflow_loaded_##name = (__typeof__(&name))dlsym(library, #name);                                              \
    if (idflow_loaded_##name == NULL && missing == NULL) missing = #name;
    IDFLOW_CURL_FUNCTIONS(IDFLOW_RESOLVE_CURL)
    if (missing != NULL) {
        snprintf(idflow_load_message, sizeof idflow_load_message,
                 "the libcurl found lacks %s (idflow needs libcurl 7.68 or later)", missing);
        idflow_load_error = idflow_load_message;
        return;
    }
    // A handle's lookup scope holds the library's own dependencies: the OpenSSL that libcurl itself uses.
    idflow_have_openssl_functions = 1;
#define IDFLOW_RESOLVE_OPENSSL(name)                                                                                \
    idflow_loaded_##name = (__typeof__(&name))dlsym(library, #name);                                              \
    if (idflow_loaded_##name == NULL) idflow_have_openssl_functions = 0;
    IDFLOW_OPENSSL_FUNCTIONS(IDFLOW_RESOLVE_OPENSSL)
    if (idflow_loaded_curl_global_init(CURL_GLOBAL_DEFAULT) != CURLE_OK) {
        idflow_load_error = "libcurl could not start (curl_global_init failed)";
    }
}

#define curl_global_init (*idflow_loaded_curl_global_init)
#define curl_easy_init (*idflow_loaded_curl_easy_init)
#define curl_easy_reset (*idflow_loaded_curl_easy_reset)
#define curl_easy_cleanup (*idflow_loaded_curl_easy_cleanup)
#define curl_easy_strerror (*idflow_loaded_curl_easy_strerror)
#undef curl_easy_setopt
#define curl_easy_setopt (*idflow_loaded_curl_easy_setopt)
#undef curl_easy_getinfo
#define curl_easy_getinfo (*idflow_loaded_curl_easy_getinfo)
#define curl_multi_init (*idflow_loaded_curl_multi_init)
#undef curl_multi_setopt
#define curl_multi_setopt (*idflow_loaded_curl_multi_setopt)
#define curl_multi_add_handle (*idflow_loaded_curl_multi_add_handle)
#define curl_multi_remove_handle (*idflow_loaded_curl_multi_remove_handle)
#define curl_multi_perform (*idflow_loaded_curl_multi_perform)
#define curl_multi_poll (*idflow_loaded_curl_multi_poll)
#define curl_multi_wakeup (*idflow_loaded_curl_multi_wakeup)
#define curl_multi_timeout (*idflow_loaded_curl_multi_timeout)
#define curl_multi_info_read (*idflow_loaded_curl_multi_info_read)
#define curl_multi_cleanup (*idflow_loaded_curl_multi_cleanup)
#define curl_slist_append (*idflow_loaded_curl_slist_append)
#define curl_slist_free_all (*idflow_loaded_curl_slist_free_all)

const char *idflow_curl_load(void) {
    pthread_once(&idflow_load_once, idflow_load);
    return idflow_load_error;
}

/// True once libcurl is loaded. Every wrapper checks it, so a call made before `idflow_curl_load` (or after it
/// failed) answers "failed to start" instead of jumping through a null pointer.
static int idflow_ready(void) { return idflow_curl_load() == NULL; }

// MARK: - libcurl

CURL *idflow_curl_easy_init(void) { return idflow_ready() ? curl_easy_init() : NULL; }

void idflow_curl_easy_reset(CURL *handle) {
    if (idflow_ready()) curl_easy_reset(handle);
}

void idflow_curl_easy_cleanup(CURL *handle) {
    if (idflow_ready()) curl_easy_cleanup(handle);
}

const char *idflow_curl_easy_strerror(CURLcode code) {
    return idflow_ready() ? curl_easy_strerror(code) : idflow_curl_load();
}

CURLcode idflow_curl_easy_setopt_long(CURL *handle, CURLoption option, long value) {
    return idflow_ready() ? curl_easy_setopt(handle, option, value) : CURLE_FAILED_INIT;
}

CURLcode idflow_curl_easy_setopt_offset(CURL *handle, CURLoption option, curl_off_t value) {
    return idflow_ready() ? curl_easy_setopt(handle, option, value) : CURLE_FAILED_INIT;
}

CURLcode idflow_curl_easy_setopt_string(CURL *handle, CURLoption option, const char *value) {
    return idflow_ready() ? curl_easy_setopt(handle, option, value) : CURLE_FAILED_INIT;
}

CURLcode idflow_curl_easy_setopt_pointer(CURL *handle, CURLoption option, void *value) {
    return idflow_ready() ? curl_easy_setopt(handle, option, value) : CURLE_FAILED_INIT;
}

CURLcode idflow_curl_easy_setopt_list(CURL *handle, CURLoption option, struct curl_slist *value) {
    return idflow_ready() ? curl_easy_setopt(handle, option, value) : CURLE_FAILED_INIT;
}

CURLcode idflow_curl_easy_setopt_data_callback(CURL *handle, CURLoption option, idflow_curl_data_callback value) {
    return idflow_ready() ? curl_easy_setopt(handle, option, value) : CURLE_FAILED_INIT;
}

CURLcode idflow_curl_easy_getinfo_long(CURL *handle, CURLINFO info, long *value) {
    return idflow_ready() ? curl_easy_getinfo(handle, info, value) : CURLE_FAILED_INIT;
}

CURLcode idflow_curl_easy_getinfo_offset(CURL *handle, CURLINFO info, curl_off_t *value) {
    return idflow_ready() ? curl_easy_getinfo(handle, info, value) : CURLE_FAILED_INIT;
}

CURLcode idflow_curl_easy_setopt_blob(CURL *handle, CURLoption option, const void *data, size_t length) {
    if (!idflow_ready()) return CURLE_FAILED_INIT;
    struct curl_blob blob;
    blob.data = (void *)data;
    blob.len = length;
    blob.flags = CURL_BLOB_COPY;
    return curl_easy_setopt(handle, option, &blob);
}

CURLcode idflow_curl_easy_allow_http_only(CURL *handle) {
    if (!idflow_ready()) return CURLE_FAILED_INIT;
#if LIBCURL_VERSION_NUM >= 0x075500
    return curl_easy_setopt(handle, CURLOPT_PROTOCOLS_STR, "http,https");
#else
    return curl_easy_setopt(handle, CURLOPT_PROTOCOLS, (long)(CURLPROTO_HTTP | CURLPROTO_HTTPS));
#endif
}

const char *idflow_curl_default_ca_file(void) {
#if LIBCURL_VERSION_NUM >= 0x075400
    static char path[4096];
    if (!idflow_ready()) return NULL;
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

CURLM *idflow_curl_multi_init(void) { return idflow_ready() ? curl_multi_init() : NULL; }

CURLMcode idflow_curl_multi_setopt_long(CURLM *handle, CURLMoption option, long value) {
    return idflow_ready() ? curl_multi_setopt(handle, option, value) : CURLM_INTERNAL_ERROR;
}

CURLMcode idflow_curl_multi_add_handle(CURLM *multi, CURL *handle) {
    return idflow_ready() ? curl_multi_add_handle(multi, handle) : CURLM_INTERNAL_ERROR;
}

CURLMcode idflow_curl_multi_remove_handle(CURLM *multi, CURL *handle) {
    return idflow_ready() ? curl_multi_remove_handle(multi, handle) : CURLM_INTERNAL_ERROR;
}

CURLMcode idflow_curl_multi_perform(CURLM *multi, int *running) {
    return idflow_ready() ? curl_multi_perform(multi, running) : CURLM_INTERNAL_ERROR;
}

CURLMcode idflow_curl_multi_poll(CURLM *multi, struct curl_waitfd *extra, unsigned int count, int timeout, int *ready) {
    return idflow_ready() ? curl_multi_poll(multi, extra, count, timeout, ready) : CURLM_INTERNAL_ERROR;
}

CURLMcode idflow_curl_multi_wakeup(CURLM *multi) {
    return idflow_ready() ? curl_multi_wakeup(multi) : CURLM_INTERNAL_ERROR;
}

CURLMcode idflow_curl_multi_timeout(CURLM *multi, long *milliseconds) {
    return idflow_ready() ? curl_multi_timeout(multi, milliseconds) : CURLM_INTERNAL_ERROR;
}

CURLMsg *idflow_curl_multi_info_read(CURLM *multi, int *left) {
    return idflow_ready() ? curl_multi_info_read(multi, left) : NULL;
}

CURLMcode idflow_curl_multi_cleanup(CURLM *multi) {
    return idflow_ready() ? curl_multi_cleanup(multi) : CURLM_INTERNAL_ERROR;
}

CURLcode idflow_curl_msg_result(const CURLMsg *message) { return message->data.result; }

struct curl_slist *idflow_curl_slist_append(struct curl_slist *list, const char *line) {
    return idflow_ready() ? curl_slist_append(list, line) : NULL;
}

void idflow_curl_slist_free_all(struct curl_slist *list) {
    if (idflow_ready()) curl_slist_free_all(list);
}

// MARK: - The certificate recorder

idflow_tls_record *idflow_tls_record_new(void) {
    idflow_tls_record *record = (idflow_tls_record *)calloc(1, sizeof *record);
    if (record != NULL) record->references = 1;
    return record;
}

void idflow_tls_record_retain(idflow_tls_record *record) { __atomic_add_fetch(&record->references, 1, __ATOMIC_RELAXED); }

void idflow_tls_record_release(idflow_tls_record *record) {
    if (record != NULL && __atomic_sub_fetch(&record->references, 1, __ATOMIC_ACQ_REL) == 0) free(record);
}

#ifdef IDFLOW_HAVE_OPENSSL
#define CRYPTO_get_ex_new_index (*idflow_loaded_CRYPTO_get_ex_new_index)
#define SSL_CTX_get_ex_data (*idflow_loaded_SSL_CTX_get_ex_data)
#define SSL_CTX_set_ex_data (*idflow_loaded_SSL_CTX_set_ex_data)
#define SSL_CTX_set_options (*idflow_loaded_SSL_CTX_set_options)
#define SSL_CTX_set_verify (*idflow_loaded_SSL_CTX_set_verify)
#define SSL_CTX_get_verify_mode (*idflow_loaded_SSL_CTX_get_verify_mode)
#define SSL_get_SSL_CTX (*idflow_loaded_SSL_get_SSL_CTX)
#define SSL_get_ex_data_X509_STORE_CTX_idx (*idflow_loaded_SSL_get_ex_data_X509_STORE_CTX_idx)
#define X509_STORE_CTX_get_ex_data (*idflow_loaded_X509_STORE_CTX_get_ex_data)
#define X509_STORE_CTX_get_error (*idflow_loaded_X509_STORE_CTX_get_error)
#define X509_STORE_CTX_get_error_depth (*idflow_loaded_X509_STORE_CTX_get_error_depth)
#define X509_STORE_CTX_get_current_cert (*idflow_loaded_X509_STORE_CTX_get_current_cert)
#define X509_NAME_oneline (*idflow_loaded_X509_NAME_oneline)
#define X509_get_subject_name (*idflow_loaded_X509_get_subject_name)
#define X509_get_issuer_name (*idflow_loaded_X509_get_issuer_name)
#define X509_get0_notBefore (*idflow_loaded_X509_get0_notBefore)
#define X509_get0_notAfter (*idflow_loaded_X509_get0_notAfter)
#define X509_get_ext_d2i (*idflow_loaded_X509_get_ext_d2i)
#define ASN1_TIME_to_tm (*idflow_loaded_ASN1_TIME_to_tm)
#define ASN1_STRING_get0_data (*idflow_loaded_ASN1_STRING_get0_data)
#define ASN1_STRING_length (*idflow_loaded_ASN1_STRING_length)
#define OPENSSL_sk_num (*idflow_loaded_OPENSSL_sk_num)
#define OPENSSL_sk_value (*idflow_loaded_OPENSSL_sk_value)
#define GENERAL_NAMES_free (*idflow_loaded_GENERAL_NAMES_free)

/// OpenSSL calls this when an SSL_CTX (a connection's) is freed: the connection's reference goes with it.
static void idflow_tls_record_free(void *parent, void *pointer, CRYPTO_EX_DATA *data, int index, long argl, void *argp) {
    (void)parent;
    (void)data;
    (void)index;
    (void)argl;
    (void)argp;
    idflow_tls_record_release((idflow_tls_record *)pointer);
}

/// The SSL_CTX ex-data slot the record lives in, allocated once (under `pthread_once`, so no two threads race for
/// it) when the first transfer installs the callback.
static int idflow_tls_index = -1;
static pthread_once_t idflow_tls_index_once = PTHREAD_ONCE_INIT;
static void idflow_tls_allocate_index(void) {
    idflow_tls_index = SSL_CTX_get_ex_new_index(0, NULL, NULL, NULL, idflow_tls_record_free);
}

static int idflow_tls_peer_index(void) {
    pthread_once(&idflow_tls_index_once, idflow_tls_allocate_index);
    return idflow_tls_index;
}

static void idflow_tls_time(const ASN1_TIME *time, char *out, size_t size) {
    struct tm parsed;
    memset(&parsed, 0, sizeof parsed);
    if (time == NULL || ASN1_TIME_to_tm(time, &parsed) != 1) {
        out[0] = 0;
        return;
    }
    strftime(out, size, "%Y-%m-%dT%H:%M:%SZ", &parsed);
}

static void idflow_tls_append(char *out, size_t size, const char *text, size_t length) {
    size_t used = strlen(out);
    if (used > 0 && used + 2 < size) {
        strcat(out, ", ");
        used += 2;
    }
    if (used + length + 1 > size) return;
    memcpy(out + used, text, length);
    out[used + length] = 0;
}

static void idflow_tls_record_certificate(idflow_tls_peer *peer, X509 *cert) {
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
static int idflow_tls_verify(int ok, X509_STORE_CTX *store) {
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
static CURLcode idflow_tls_context(CURL *handle, void *context, void *record) {
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

CURLcode idflow_curl_easy_watch_tls(CURL *handle, idflow_tls_record *record) {
    if (!idflow_ready()) return CURLE_FAILED_INIT;
    if (!idflow_have_openssl_functions) return CURLE_NOT_BUILT_IN;
    // The slot exists before any connection's callback can look for it.
    if (idflow_tls_peer_index() < 0) return CURLE_NOT_BUILT_IN;
    CURLcode code = curl_easy_setopt(handle, CURLOPT_SSL_CTX_FUNCTION, idflow_tls_context);
    if (code != CURLE_OK) return code;
    return curl_easy_setopt(handle, CURLOPT_SSL_CTX_DATA, (void *)record);
}

#else
CURLcode idflow_curl_easy_watch_tls(CURL *handle, idflow_tls_record *record) {
    (void)handle;
    (void)record;
    return CURLE_NOT_BUILT_IN;
}
#endif

void idflow_curl_easy_unwatch_tls(CURL *handle) {
    if (idflow_ready()) curl_easy_setopt(handle, CURLOPT_SSL_CTX_DATA, (void *)NULL);
}
