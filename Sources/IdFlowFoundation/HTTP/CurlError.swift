internal import CCurl
import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Turns a failed libcurl transfer into the `URLError` `HTTPClient` and `RetryPolicy` already classify, with
/// libcurl's own error text as its description (what URLSession on Linux reports too) and the libcurl code
/// underneath, for messages that need to say more (a TLS failure's cause).
enum CurlError {
    /// The domain of the underlying error; its code is the `CURLcode`.
    static let domain = "libcurl"

    static func urlError(for result: CURLcode, osErrno: Int, message: String, url: URL?) -> URLError {
        let reason = message.isEmpty ? String(cString: curl_easy_strerror(result)) : message
        var userInfo: [String: Any] = [
            NSLocalizedDescriptionKey: reason,
            NSUnderlyingErrorKey: NSError(domain: domain, code: Int(result.rawValue), userInfo: [NSLocalizedDescriptionKey: reason]),
        ]
        if let url {
            userInfo[NSURLErrorFailingURLErrorKey] = url
        }
        return URLError(code(for: result, osErrno: osErrno), userInfo: userInfo)
    }

    /// The codes URLSession gives for the same failures where it maps them (refused, unresolved, timed out,
    /// reset), and the specific TLS codes where it gives only `.unknown`, so a TLS failure reads as one.
    static func code(for result: CURLcode, osErrno: Int) -> URLError.Code {
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
