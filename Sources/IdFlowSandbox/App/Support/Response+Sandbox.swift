import HTTPTypes
import Hummingbird

extension HTTPField.Name {
    static let oktaRequestID = Self("x-okta-request-id")!
    static let rateLimitLimit = Self("X-Rate-Limit-Limit")!
    static let rateLimitRemaining = Self("X-Rate-Limit-Remaining")!
    static let rateLimitReset = Self("X-Rate-Limit-Reset")!
    static let referrerPolicy = Self("Referrer-Policy")!
    static let pragma = Self("Pragma")!
    static let expires = Self("Expires")!
    static let xFrameOptions = Self("X-Frame-Options")!
}

extension Response {
    /// The content type real orgs send on every JSON body.
    static let jsonContentType = "application/json;charset=UTF-8"

    /// A JSON response with the keys in the order `value` lists them.
    static func json(_ value: OrderedJSON, status: HTTPResponse.Status = .ok) -> Response {
        Response(
            status: status,
            headers: [.contentType: jsonContentType],
            body: .init(byteBuffer: ByteBuffer(string: value.serialized())))
    }

    /// A body-less response (204 on delete, 200 on revoke).
    static func empty(_ status: HTTPResponse.Status) -> Response {
        Response(status: status, headers: [.contentLength: "0"])
    }

    /// What a page may load: nothing but itself, and no page of any origin may frame it. A sign-in page
    /// inside someone else's frame is the setting of clickjacking (the person believes they press another
    /// site's button and signs in or approves a device code), so real sign-in pages refuse framing, with
    /// `X-Frame-Options` for browsers that predate `frame-ancestors`.
    static let pageSecurityPolicy = "default-src 'none'; base-uri 'none'; frame-ancestors 'none'"
    /// `pageSecurityPolicy` for the form_post page, whose inline `onload` submits the form.
    static let formPostSecurityPolicy = "default-src 'none'; script-src 'unsafe-inline'; base-uri 'none'; frame-ancestors 'none'"

    /// An HTML page (the authorize sign-in form, the device code page, their error pages): never framed.
    static func html(
        _ html: String, status: HTTPResponse.Status = .ok, securityPolicy: String = Response.pageSecurityPolicy
    ) -> Response {
        Response(
            status: status,
            headers: [
                .contentType: "text/html;charset=utf-8", .contentSecurityPolicy: securityPolicy, .xFrameOptions: "DENY",
            ],
            body: .init(byteBuffer: ByteBuffer(string: html)))
    }

    /// A 302 to `location`.
    static func redirect(to location: String, headers extra: HTTPFields = [:]) -> Response {
        var headers: HTTPFields = [.location: location, .contentLength: "0"]
        headers.append(contentsOf: extra)
        return Response(status: .found, headers: headers)
    }
}
