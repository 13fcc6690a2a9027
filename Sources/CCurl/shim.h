// libcurl for Swift: curl_easy_setopt, curl_easy_getinfo and curl_multi_setopt are C variadics, which Swift
// cannot call, so each argument type the transport uses gets a fixed-signature wrapper here.
#ifndef IDFLOW_CCURL_SHIM_H
#define IDFLOW_CCURL_SHIM_H

#include <curl/curl.h>

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

/// curl_global_init with the default flags (a macro expression Swift does not import).
static inline CURLcode idflow_curl_global_init(void) {
    return curl_global_init(CURL_GLOBAL_DEFAULT);
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
