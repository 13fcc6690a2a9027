internal import CCurl
import Foundation

/// One request on one easy handle: configured on the caller's thread, run by the loop thread (whose
/// callbacks fill `body` and `headerBytes`), read back on the caller's thread once `continuation` has been
/// resumed. The loop thread only appends bytes; parsing the head and building the response happen in the
/// caller, so the one thread every request shares does as little as possible.
final class CurlTransfer: @unchecked Sendable {
    private(set) var handle: UnsafeMutableRawPointer?
    package let url: URL?
    let maximumBytes: Int
    var continuation: CheckedContinuation<Void, any Error>?

    private(set) var body = Data()
    /// The raw head of the latest response (a `100 Continue` or other interim answer is dropped when the
    /// next status line arrives).
    private var headerBytes: [UInt8] = []
    /// Set when idflow aborted the transfer itself (the size cap); reported instead of libcurl's error.
    private var failure: IdFlowError?
    private var result = CURLE_OK
    private var status = 0
    private var osErrno = 0
    private var headerList: UnsafeMutablePointer<curl_slist>?
    /// libcurl writes a readable reason here when a transfer fails ("SSL certificate problem: …").
    private let errorBuffer = UnsafeMutablePointer<CChar>.allocate(capacity: Int(CURL_ERROR_SIZE))
    /// The record OpenSSL's verification fills during a new connection's handshake, shared with that connection
    /// (which outlives the transfer in libcurl's pool); the transfer's reference is dropped in `finish`.
    private var record: UnsafeMutablePointer<idflow_tls_record>? = idflow_tls_record_new()
    /// What the verification saw of the server's certificate, copied out of `record` when the transfer ended.
    private var peer = idflow_tls_peer()
    /// The proxy this request goes through (its URL without a password), for messages.
    private(set) var proxy: String?
    /// The status of the proxy's answer to CONNECT (407 when it wants credentials), 0 without a proxy.
    private var connectStatus = 0

    init(url: URL?, maximumBytes: Int, handle: UnsafeMutableRawPointer) {
        self.url = url
        self.maximumBytes = maximumBytes
        self.handle = handle
        errorBuffer.initialize(repeating: 0, count: Int(CURL_ERROR_SIZE))
    }

    deinit {
        idflow_curl_slist_free_all(headerList)
        errorBuffer.deallocate()
        idflow_tls_record_release(record)
    }

    /// Hands the easy handle back (for the pool) once the transfer is over.
    func releaseHandle() -> UnsafeMutableRawPointer? {
        defer { handle = nil }
        return handle
    }

    // MARK: - Configuration (caller's thread)

    func configure(for request: HTTPRequest, options: CurlTransport.Options, trustBundle: Data?) throws {
        guard let handle else { throw TransportFailure(.unknown, reason: "libcurl could not start") }
        let url = request.url
        let context = Unmanaged.passUnretained(self).toOpaque()
        try set(CURLOPT_URL, url.absoluteString)
        try check(idflow_curl_easy_allow_http_only(handle), nil)
        try set(CURLOPT_NOSIGNAL, 1)
        try set(CURLOPT_FOLLOWLOCATION, 0)
        // Verification is set on every request, never from options: there is no way to switch it off.
        try set(CURLOPT_SSL_VERIFYPEER, 1)
        try set(CURLOPT_SSL_VERIFYHOST, 2)
        // As URLSession does: ask for any encoding libcurl can decode, and hand back the decoded body.
        try set(CURLOPT_ACCEPT_ENCODING, "")
        try check(idflow_curl_easy_setopt_pointer(handle, CURLOPT_ERRORBUFFER, errorBuffer), CURLOPT_ERRORBUFFER)
        try check(idflow_curl_easy_setopt_data_callback(handle, CURLOPT_WRITEFUNCTION, curlWriteBody), CURLOPT_WRITEFUNCTION)
        try check(idflow_curl_easy_setopt_pointer(handle, CURLOPT_WRITEDATA, context), CURLOPT_WRITEDATA)
        try check(idflow_curl_easy_setopt_data_callback(handle, CURLOPT_HEADERFUNCTION, curlWriteHeader), CURLOPT_HEADERFUNCTION)
        try check(idflow_curl_easy_setopt_pointer(handle, CURLOPT_HEADERDATA, context), CURLOPT_HEADERDATA)
        // As URLSession did: a request without a timeout of its own may take a minute.
        let timeout = request.timeout ?? .seconds(60)
        if timeout > .zero {
            try set(CURLOPT_TIMEOUT_MS, Int(timeout.inSeconds * 1000))
        }
        try configureMethod(of: request)
        try configureHeaders(of: request)
        try options.apply(to: self, url: url, trustBundle: trustBundle)
        proxy = options.proxy(for: url).map(CurlTransport.Options.withoutPassword)
        // Only OpenSSL builds of libcurl take the recording callback; elsewhere failures keep libcurl's own words.
        if let record { _ = idflow_curl_easy_watch_tls(handle, record) }
    }

    private func configureMethod(of request: HTTPRequest) throws {
        let method = request.method.uppercased()
        let body = request.body
        switch method {
        case "GET" where body == nil:
            try set(CURLOPT_HTTPGET, 1)
        case "HEAD":
            try set(CURLOPT_NOBODY, 1)
        default:
            // A body is sent for every method that has one, and an empty one for POST, PUT and PATCH, so the
            // server sees `Content-Length: 0` as it does from URLSession.
            if body != nil || ["POST", "PUT", "PATCH"].contains(method) {
                let bytes = body ?? Data()
                try check(
                    idflow_curl_easy_setopt_offset(handle, CURLOPT_POSTFIELDSIZE_LARGE, curl_off_t(bytes.count)),
                    CURLOPT_POSTFIELDSIZE_LARGE)
                // COPYPOSTFIELDS: libcurl keeps its own copy, so the Data need not outlive this call.
                let code = bytes.withUnsafeBytes { raw in
                    idflow_curl_easy_setopt_pointer(
                        handle, CURLOPT_COPYPOSTFIELDS, UnsafeMutableRawPointer(mutating: raw.baseAddress ?? emptyBody))
                }
                try check(code, CURLOPT_COPYPOSTFIELDS)
            }
            if method != "POST" {
                try set(CURLOPT_CUSTOMREQUEST, method)
            }
        }
    }

    private func configureHeaders(of request: HTTPRequest) throws {
        var lines: [String] = []
        for (name, value) in request.headers {
            // libcurl's syntax: `Name;` sends a header with an empty value (`Name:` would remove it).
            lines.append(value.isEmpty ? "\(name);" : "\(name): \(value)")
        }
        // libcurl (before 8.x) asks for `100 Continue` before a body over 1 KiB and waits up to a second for a
        // server that never sends one; URLSession does not ask, and neither does idflow.
        lines.append("Expect:")
        for line in lines {
            guard let appended = idflow_curl_slist_append(headerList, line) else {
                throw TransportFailure(.unknown, reason: "libcurl could not take a header")
            }
            headerList = appended
        }
        try check(idflow_curl_easy_setopt_list(handle, CURLOPT_HTTPHEADER, headerList), CURLOPT_HTTPHEADER)
    }

    func set(_ option: CURLoption, _ value: Int) throws {
        try check(idflow_curl_easy_setopt_long(handle, option, value), option)
    }

    func set(_ option: CURLoption, blob: Data) throws {
        let code = blob.withUnsafeBytes { raw in idflow_curl_easy_setopt_blob(handle, option, raw.baseAddress, raw.count) }
        try check(code, option)
    }

    func set(_ option: CURLoption, _ value: String) throws {
        // libcurl copies string options (since 7.17), so the C string need only live for the call.
        try check(idflow_curl_easy_setopt_string(handle, option, value), option)
    }

    /// A refused option is a programming or build error (an option this libcurl lacks), never silently skipped:
    /// skipping the verification options would send requests unverified.
    private func check(_ code: CURLcode, _ option: CURLoption?) throws {
        guard code != CURLE_OK else { return }
        let name = option.map { " \($0.rawValue)" } ?? ""
        throw TransportFailure(.unknown, reason: "libcurl refused option\(name): \(String(cString: idflow_curl_easy_strerror(code)))")
    }

    // MARK: - The transfer (loop thread)

    /// Appends body bytes; false once the body outgrows the cap, which makes the callback abort the transfer.
    fileprivate func receive(body bytes: UnsafeRawBufferPointer) -> Bool {
        guard failure == nil else { return false }
        if body.count + bytes.count > maximumBytes {
            refuse(received: body.count + bytes.count)
            return false
        }
        body.append(contentsOf: bytes)
        return true
    }

    /// Collects one header line; at the blank line that ends a head, refuses a declared length over the cap
    /// before a byte of the body is read.
    fileprivate func receive(headerLine bytes: UnsafeRawBufferPointer) -> Bool {
        if bytes.starts(with: "HTTP/".utf8) { headerBytes.removeAll(keepingCapacity: true) }
        headerBytes.append(contentsOf: bytes)
        guard bytes.count <= 2, bytes.allSatisfy({ $0 == 0x0D || $0 == 0x0A }) else { return true }
        var declared: curl_off_t = -1
        _ = idflow_curl_easy_getinfo_offset(handle, CURLINFO_CONTENT_LENGTH_DOWNLOAD_T, &declared)
        if declared > maximumBytes {
            refuse(received: Int(declared))
            return false
        }
        return true
    }

    private func refuse(received: Int) {
        failure = ResponseSizeCap.refusal(url: url, received: received, maximum: maximumBytes)
        body = Data()
    }

    /// Records how the transfer ended (the loop calls this after removing the handle from the multi handle).
    func finish(result: CURLcode) {
        self.result = result
        // The handshake is over: keep a copy, and let the connection alone own the record from here on.
        if let record {
            peer = record.pointee.peer
            idflow_tls_record_release(record)
            self.record = nil
        }
        if let handle { idflow_curl_easy_unwatch_tls(handle) }
        var code = 0
        _ = idflow_curl_easy_getinfo_long(handle, CURLINFO_RESPONSE_CODE, &code)
        status = code
        var errno = 0
        _ = idflow_curl_easy_getinfo_long(handle, CURLINFO_OS_ERRNO, &errno)
        osErrno = errno
        var connect = 0
        _ = idflow_curl_easy_getinfo_long(handle, CURLINFO_HTTP_CONNECTCODE, &connect)
        connectStatus = connect
    }

    /// The server certificate a new connection's handshake verified (nil on a reused connection or plain http).
    var verifiedPeer: TLSPeer? {
        guard peer.handshake != 0, peer.verify_error == 0 else { return nil }
        return TLSPeer(peer)
    }

    // MARK: - The answer (caller's thread)

    func response() throws -> HTTPResponse {
        if let failure { throw failure }
        guard result == CURLE_OK else {
            let message = String(cString: errorBuffer)
            let seen = peer.handshake != 0 ? TLSPeer(peer) : nil
            if let diagnosis = TLSFailure.diagnose(
                result: result, message: message, peer: seen, verifyError: Int(peer.verify_error), url: url, proxy: proxy,
                connectStatus: connectStatus)
            {
                throw diagnosis
            }
            throw CurlError.failure(for: result, osErrno: osErrno, message: message)
        }
        guard let url, status > 0 else { throw TransportFailure(.badServerResponse, reason: "no HTTP status line came back") }
        return HTTPResponse(status: status, lowercasedHeaders: Self.headerFields(headerBytes), body: body, url: url)
    }

    /// The head's fields by lower-case name (HTTP/2 sends them lower-case, and `HTTPResponse.header` looks them up
    /// so); a repeated field's values are joined with ", " (as URLSession joined them), a folded continuation line
    /// is added to the field before it. Parsed on the bytes: Foundation's `trimmingCharacters(in:)` was a third of
    /// this function's cost in `register --batch`.
    static func headerFields(_ head: [UInt8]) -> [String: String] {
        var fields: [String: String] = [:]
        var last: String?
        for line in head.split(separator: 0x0A).dropFirst() {
            let folded = line.first == 0x20 || line.first == 0x09
            if folded, let name = last {
                fields[name, default: ""] += " " + String(decoding: trimmed(line), as: UTF8.self)
                continue
            }
            guard let colon = line.firstIndex(of: 0x3A) else { continue }
            let name = String(decoding: line[..<colon], as: UTF8.self).lowercased()
            let value = String(decoding: trimmed(line[(colon + 1)...]), as: UTF8.self)
            if let existing = fields[name] {
                fields[name] = existing + ", " + value
            } else {
                fields[name] = value
            }
            last = name
        }
        return fields
    }

    /// `bytes` without leading and trailing spaces, tabs and carriage returns.
    private static func trimmed(_ bytes: ArraySlice<UInt8>) -> ArraySlice<UInt8> {
        func isSpace(_ byte: UInt8) -> Bool { byte == 0x20 || byte == 0x09 || byte == 0x0D }
        guard let start = bytes.firstIndex(where: { !isSpace($0) }), let end = bytes.lastIndex(where: { !isSpace($0) }) else {
            return bytes[bytes.startIndex..<bytes.startIndex]
        }
        return bytes[start...end]
    }
}

/// A non-null pointer for an empty body (COPYPOSTFIELDS with size 0 must not be given NULL, which would
/// make libcurl read the body from a callback instead).
private nonisolated(unsafe) let emptyBody = UnsafeRawPointer(UnsafeMutableRawPointer.allocate(byteCount: 1, alignment: 1))

/// CURLOPT_WRITEFUNCTION: anything but the byte count given makes libcurl abort with CURLE_WRITE_ERROR.
private let curlWriteBody: idflow_curl_data_callback = { data, size, count, context in
    guard let context else { return 0 }
    let transfer = Unmanaged<CurlTransfer>.fromOpaque(context).takeUnretainedValue()
    let bytes = UnsafeRawBufferPointer(start: data, count: size * count)
    return transfer.receive(body: bytes) ? size * count : 0
}

/// CURLOPT_HEADERFUNCTION: called once per header line, status line and final blank line included.
private let curlWriteHeader: idflow_curl_data_callback = { data, size, count, context in
    guard let context else { return 0 }
    let transfer = Unmanaged<CurlTransfer>.fromOpaque(context).takeUnretainedValue()
    let bytes = UnsafeRawBufferPointer(start: data, count: size * count)
    return transfer.receive(headerLine: bytes) ? size * count : 0
}
