internal import CCurl
import Foundation

/// Turns a failed TLS handshake or proxy exchange into an error that says what to do (docs/contract.md, exit 6 with
/// the fix named; a proxy's 407 exit 4), from libcurl's result, its error text and what the verify callback saw.
/// Anything it does not recognise is left to `CurlError`'s generic mapping.
enum TLSFailure {
    /// OpenSSL's X509_V_ERR_* codes this distinguishes.
    enum VerifyError {
        static let notYetValid = 9
        static let expired = 10
        static let selfSignedLeaf = 18
        static let selfSignedInChain = 19
        static let issuerNotFoundLocally = 20
        static let leafSignatureUnverifiable = 21
        static let issuerNotFound = 2
        static let hostnameMismatch = 62
    }

    static let trustHint =
        "if that issuer is your organisation's CA, trust it with --ca-file PATH (a PEM bundle; env IDFLOW_CA_FILE, profile key caFile); verification cannot be switched off"
    static let clientCertificateHint =
        "present one with --client-cert PATH --client-key PATH (env IDFLOW_CLIENT_CERT / IDFLOW_CLIENT_KEY, profile keys clientCert / clientKey)"

    static func diagnose(
        result: CURLcode, message: String, peer: TLSPeer?, verifyError: Int, url: URL?, proxy: String?, connectStatus: Int
    ) -> IdFlowError? {
        let failing = Redactor.url(url?.absoluteString ?? "")
        let host = url?.host ?? "the server"
        if let proxy, connectStatus == 407 {
            return .authentication(
                "the proxy \(proxy) refused to connect to \(host) without valid credentials (HTTP 407)",
                hint:
                    "give the proxy's user name and password: in the URL (--proxy http://USER:PASSWORD@HOST:PORT, or HTTPS_PROXY), or okta.client.proxy.username and .password in ~/.okta/okta.yaml"
            )
        }
        if let proxy, connectStatus >= 300 {
            return .network(
                url: failing, reason: "the proxy \(proxy) refused to connect to \(host) (HTTP \(connectStatus) to CONNECT)",
                hint: "check that the proxy lets you reach \(host) (NO_PROXY lists hosts reached without it)")
        }
        if let proxy, result == CURLE_COULDNT_RESOLVE_PROXY || (result == CURLE_COULDNT_CONNECT && connectStatus == 0) {
            return .network(
                url: failing, reason: "cannot reach the proxy \(proxy): \(message)",
                hint: "check --proxy, HTTPS_PROXY or okta.client.proxy in ~/.okta/okta.yaml; an empty --proxy \"\" uses none")
        }
        if result == CURLE_PEER_FAILED_VERIFICATION || verifyError != 0 {
            return certificateRefused(message: message, peer: peer, verifyError: verifyError, url: failing, host: host)
        }
        let lowered = message.lowercased()
        if lowered.contains("alert certificate required") || lowered.contains("peer did not return a certificate") {
            return .network(
                url: failing, reason: "\(host) requires a TLS client certificate and none was presented", hint: clientCertificateHint)
        }
        if lowered.contains("alert unknown ca") || lowered.contains("alert bad certificate")
            || lowered.contains("alert certificate unknown") || lowered.contains("alert handshake failure")
        {
            return .network(
                url: failing,
                reason: "\(host) refused the TLS handshake (\(message)); it wants a client certificate it trusts",
                hint: "give --client-cert and --client-key a certificate issued by a CA that \(host) trusts, and its key")
        }
        if result == CURLE_SSL_CERTPROBLEM {
            return .network(
                url: failing, reason: "cannot use the client certificate: \(message)",
                hint: "check --client-cert and --client-key: PEM files, the key matching the certificate")
        }
        return nil
    }

    private static func certificateRefused(message: String, peer: TLSPeer?, verifyError: Int, url: String, host: String)
        -> IdFlowError
    {
        let subject = peer.map { " (\($0.subject))" } ?? ""
        switch verifyError {
        case VerifyError.expired:
            let until = peer.map { " on \($0.notAfter)" } ?? ""
            return .network(
                url: url, reason: "the certificate of \(host)\(subject) expired\(until); it is \(now())",
                hint: "the server's certificate must be renewed; if it was, check this machine's clock")
        case VerifyError.notYetValid:
            let from = peer.map { " until \($0.notBefore)" } ?? ""
            return .network(
                url: url, reason: "the certificate of \(host)\(subject) is not valid\(from); it is \(now())",
                hint: "check this machine's clock, or wait until the certificate becomes valid")
        case VerifyError.selfSignedLeaf, VerifyError.selfSignedInChain, VerifyError.issuerNotFoundLocally,
            VerifyError.leafSignatureUnverifiable, VerifyError.issuerNotFound:
            let issuer = peer.map { " was issued by \($0.issuer), which" } ?? "'s issuer"
            return .network(
                url: url, reason: "the certificate of \(host)\(subject)\(issuer) is not trusted on this machine", hint: trustHint)
        default:
            break
        }
        let lowered = message.lowercased()
        if verifyError == VerifyError.hostnameMismatch || lowered.contains("subject name") || lowered.contains("does not match target host")
        {
            let names = peer.map { $0.names.isEmpty ? $0.subject : $0.names.joined(separator: ", ") } ?? "other names"
            return .network(
                url: url, reason: "the certificate presented for \(host) is for \(names), not \(host)",
                hint: "use the host name the certificate names in --org-url/--issuer, or have the certificate reissued for \(host)")
        }
        return .network(url: url, reason: "TLS failure: \(message)", hint: trustHint)
    }

    private static func now() -> String {
        ISO8601.string(Date())
    }
}
