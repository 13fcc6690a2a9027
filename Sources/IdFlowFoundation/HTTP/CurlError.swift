internal import CCurl
import Foundation

/// Turns a failed libcurl transfer into the `TransportFailure` `HTTPClient` and `RetryPolicy` classify, with
/// libcurl's own error text as its reason and the `CURLcode` kept for messages that need to say more.
enum CurlError {
    static func failure(for result: CURLcode, osErrno: Int, message: String) -> TransportFailure {
        let reason = message.isEmpty ? String(cString: idflow_curl_easy_strerror(result)) : message
        return TransportFailure(kind(for: result, osErrno: osErrno), reason: reason, curlCode: Int(result.rawValue))
    }

    /// The kinds URLSession gave for the same failures where it mapped them (refused, unresolved, timed out,
    /// reset), and the specific TLS kinds where it gave only "unknown", so a TLS failure reads as one.
    static func kind(for result: CURLcode, osErrno: Int) -> TransportFailure.Kind {
        switch result {
        case CURLE_COULDNT_CONNECT:
            return osErrno == Int(ETIMEDOUT) ? .timedOut : .cannotConnectToHost
        case CURLE_COULDNT_RESOLVE_HOST, CURLE_COULDNT_RESOLVE_PROXY:
            return .cannotFindHost
        case CURLE_OPERATION_TIMEDOUT:
            return .timedOut
        case CURLE_UNSUPPORTED_PROTOCOL:
            return .unsupportedURL
        case CURLE_URL_MALFORMAT:
            return .badURL
        case CURLE_SEND_ERROR, CURLE_RECV_ERROR, CURLE_PARTIAL_FILE, CURLE_HTTP2, CURLE_HTTP2_STREAM:
            return .networkConnectionLost
        case CURLE_GOT_NOTHING, CURLE_WEIRD_SERVER_REPLY:
            return .badServerResponse
        case CURLE_PEER_FAILED_VERIFICATION:
            return .serverCertificateUntrusted
        case CURLE_SSL_CLIENTCERT:
            return .clientCertificateRejected
        case CURLE_SSL_CONNECT_ERROR, CURLE_SSL_CERTPROBLEM, CURLE_SSL_CIPHER, CURLE_SSL_CACERT_BADFILE, CURLE_SSL_CRL_BADFILE,
            CURLE_SSL_ISSUER_ERROR, CURLE_SSL_PINNEDPUBKEYNOTMATCH, CURLE_SSL_INVALIDCERTSTATUS, CURLE_SSL_SHUTDOWN_FAILED,
            CURLE_SSL_ENGINE_NOTFOUND, CURLE_SSL_ENGINE_SETFAILED, CURLE_SSL_ENGINE_INITFAILED, CURLE_USE_SSL_FAILED:
            return .secureConnectionFailed
        case CURLE_ABORTED_BY_CALLBACK:
            return .cancelled
        default:
            return .unknown
        }
    }
}
