import Foundation
import IdFlowFoundation

/// The org as the device protocol names it (`aud` of every device JWT, the key of its folder in the state
/// directory): scheme, host and port only. Every URL a token or a signed answer goes to must be on it.
enum AuthenticatorOrg {
    /// `url` reduced to scheme, host and port, with no path and no trailing slash.
    static func origin(of url: URL) throws(IdFlowError) -> URL {
        try TransportSecurity.check(url)
        guard let origin = Origin(url) else { throw .invalidInput("the org URL \(url.absoluteString) has no host") }
        return origin.url
    }

    /// The configured org, as an origin.
    static func configured(_ context: IdFlowContext) throws(IdFlowError) -> URL {
        try origin(of: try context.configuration.requireOrgURL())
    }

    /// The configured org when one is set (then only its enrollments are used), nil for every org's.
    static func configuredIfAny(_ context: IdFlowContext) throws(IdFlowError) -> URL? {
        context.configuration.orgURL == nil ? nil : try configured(context)
    }

    /// A URL from a server answer or a stored record that a token or a signed answer goes to: it must be on `org`.
    static func link(_ text: String, on org: URL, what: String) throws(IdFlowError) -> URL {
        guard let url = URL(string: text), url.host != nil else { throw .protocolViolation("the \(what) \(text) is not a URL") }
        guard OrgEndpoint(orgURL: org).contains(url) else {
            throw .security(
                "the \(what) \(Redactor.url(text)) is not on the org \(org.absoluteString); refusing to send anything there",
                hint: "the server or the enrollment record points elsewhere; check --org-url")
        }
        try TransportSecurity.check(url)
        return url
    }
}

extension EnrollmentRecord {
    /// The org URL as the record keeps it; a file someone edited may hold anything.
    func storedOrgURL() throws(IdFlowError) -> URL {
        guard let url = URL(string: orgUrl) else { throw .localState("the stored org URL \(orgUrl) is not a URL") }
        return url
    }

    /// The org the enrollment was made on, as an origin.
    func org() throws(IdFlowError) -> URL {
        try AuthenticatorOrg.origin(of: try storedOrgURL())
    }

    /// Where the enrollment is PATCHed and DELETEd: its `links.self`, else
    /// `{org}/idp/myaccount/app-authenticators/{id}` (devices.md §3).
    func link(on org: URL) throws(IdFlowError) -> URL {
        let fallback = OrgEndpoint(orgURL: org).url(["idp", "myaccount", "app-authenticators", enrollmentId])
        return try AuthenticatorOrg.link(selfUrl ?? fallback.absoluteString, on: org, what: "enrollment link")
    }
}

extension DeviceStore {
    /// The device store of the context's state directory.
    init(_ context: IdFlowContext) {
        self.init(stateDirectory: context.configuration.stateDirectory)
    }
}
