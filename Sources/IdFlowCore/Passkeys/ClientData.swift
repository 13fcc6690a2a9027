import Foundation
import IdFlowFoundation

/// `clientDataJSON` (webauthn.md §4, W3C §5.8.1): what the relying party hashes, so its bytes are those a browser
/// writes, members in the order of W3C §5.8.1.1 (`type`, `challenge`, `origin`, `crossOrigin`), which is what a
/// verifier without a JSON parser matches (§5.8.1.2).
public struct ClientData: Sendable, Equatable {
    /// The ceremony: `webauthn.create` at enrolment, `webauthn.get` at an assertion.
    public enum Ceremony: String, Sendable {
        case create = "webauthn.create"
        case get = "webauthn.get"
    }

    public let ceremony: Ceremony
    public let challenge: [UInt8]
    /// Always the origin idflow talked to, never one a document names.
    public let origin: Origin

    public init(ceremony: Ceremony, challenge: [UInt8], origin: Origin) {
        self.ceremony = ceremony
        self.challenge = challenge
        self.origin = origin
    }

    /// From the server's challenge as Okta sends it: base64url, unpadded.
    public init(ceremony: Ceremony, challenge: String, origin: Origin) throws(IdFlowError) {
        guard let bytes = Base64URL.decode(challenge), !bytes.isEmpty else {
            throw .protocolViolation("the WebAuthn challenge \(challenge) is not base64url")
        }
        self.init(ceremony: ceremony, challenge: Array(bytes), origin: origin)
    }

    /// The exact bytes posted as `clientData` and hashed.
    public var json: [UInt8] {
        let members = [
            "\"type\":" + Self.string(ceremony.rawValue),
            "\"challenge\":" + Self.string(Base64URL.encode(challenge)),
            "\"origin\":" + Self.string(origin.description),
            "\"crossOrigin\":false",
        ]
        return Array(("{" + members.joined(separator: ",") + "}").utf8)
    }

    /// `clientDataHash`, SHA-256 of `json`: what the authenticator signs after the authenticator data.
    public var hash: [UInt8] { Digests.sha256(json) }

    /// CCDToString (W3C §5.8.1.2): a JSON string, with `"` and `\` escaped and control characters as `\uXXXX`.
    static func string(_ text: String) -> String {
        var result = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": result += "\\\""
            case "\\": result += "\\\\"
            case _ where scalar.value < 0x20:
                let hex = String(scalar.value, radix: 16)
                result += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default: result.unicodeScalars.append(scalar)
            }
        }
        return result + "\""
    }
}
