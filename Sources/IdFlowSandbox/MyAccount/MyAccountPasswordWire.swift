import Foundation
import HTTPTypes
import Hummingbird

/// What the MyAccount Password API sends (direct-auth.md §9.2): JSON labelled with the API version.
enum MyAccountPasswordWire {
    static let version = "okta-version=1.0.0"
    static let contentType = "application/json;\(version)"

    static func json(_ value: OrderedJSON, status: HTTPResponse.Status = .ok) -> Response {
        var response = Response.json(value, status: status)
        response.headers[.contentType] = contentType
        return response
    }

    /// Whether an `Accept` header names the version (`application/json; okta-version=1.0.0`, spaces optional).
    static func namesVersion(_ accept: String?) -> Bool {
        (accept ?? "").split(separator: ",").contains { range in
            range.split(separator: ";").dropFirst().contains { $0.trimmingCharacters(in: .whitespaces) == version }
        }
    }

    /// The Password object: `id` (the password's, stable for the user), `status`, `created` (the user's creation, when
    /// the password authenticator was enrolled *(inferred)*), `lastUpdated` (the password's change), `_links.self`.
    static func password(_ user: UserRecord, orgURL: String) -> Response {
        json([
            "id": .string("00T" + user.id.dropFirst(3)),
            "status": .string(user.status == .passwordExpired ? "EXPIRED" : "ACTIVE"),
            "created": .string(Timestamps.iso8601(user.created)),
            "lastUpdated": .string(Timestamps.iso8601(user.passwordChanged ?? user.created)),
            "_links": ["self": ["href": .string("\(orgURL)\(MyAccountPasswordController.base)")]],
        ])
    }

    /// The rules a new password must meet, in the password policy's own shape (`settings.password`: `complexity` and
    /// `age`, the names Authn publishes too); the exact shape of Okta's answer was not recorded *(inferred)*.
    static var complexityRequirements: OrderedJSON {
        ["complexity": PasswordPolicy.complexity(excludeUsername: true), "age": PasswordPolicy.age]
    }
}

extension OktaErrorResponse {
    /// E0000021: `Accept` without the API version every `/idp/myaccount` call must name. Okta's answer to a missing
    /// version was not recorded; this is its catalogue's error for unsupported `Accept` values *(inferred)*.
    static let unsupportedMediaType = Self(
        .badRequest, "E0000021", "Bad request. Accept and/or Content-Type headers likely do not match supported values.")
}
