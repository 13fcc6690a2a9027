import Foundation
import IdFlowCore
import IdFlowFoundation
import IdFlowTestSupport
import Testing

struct DecodedJWTTests {
    static func recordedTokens() throws -> (access: String, id: String) {
        let response = try JSONValue(data: Fixtures.data("okta-core/oauth-token-response-default-as.json"))
        return (try #require(response["access_token"]?.stringValue), try #require(response["id_token"]?.stringValue))
    }

    static func invalidInputMessage(_ compact: String) -> String? {
        do {
            _ = try DecodedJWT(compact)
            Issue.record("decoded a malformed token")
            return nil
        } catch {
            guard case .invalidInput(let message, let hint) = error else {
                Issue.record("expected .invalidInput, got \(error)")
                return nil
            }
            #expect(hint?.contains("three base64url parts") == true)
            #expect(error.exitStatus == .usage)
            return message
        }
    }

    @Test
    func theRecordedAccessTokenDecodes() throws {
        let token = try DecodedJWT(Self.recordedTokens().access)
        #expect(token.algorithm == "HS256")
        #expect(token.keyID == "k6HN2DKok-kExjJGBLqgzByMCnN1RvzEOA-1ukTjexA")
        #expect(token.claims["iss"] == "https://example.com/oauth2/default")
        #expect(token.claims["aud"] == "api://default")
        #expect(token.claims["cid"] == "0oa3en4fAAA3ddc204w5")
        #expect(token.claims["uid"] == "00u2q5p3AAAOXoSc04w5")
        #expect(token.claims["scp"] == ["offline_access", "profile", "openid"])
        #expect(token.claims["sub"] == "arthur.dent@example.com")
        #expect(token.issuedAt == Date(timeIntervalSince1970: 1_642_532_562))
        #expect(token.expiresAt == Date(timeIntervalSince1970: 1_642_536_162))
        #expect(token.signature.count == 32)
        let parts = try Self.recordedTokens().access.split(separator: ".")
        #expect(token.signingInput == "\(parts[0]).\(parts[1])")
    }

    @Test
    func theRecordedIDTokenDecodes() throws {
        let token = try DecodedJWT(Self.recordedTokens().id)
        #expect(token.algorithm == "HS256")
        #expect(token.keyID == "k6HN2DKok-kExjJGBLqgzByMCnN1RvzEOA-1ukTjexA")
        #expect(token.claims["sub"] == "00u2q5p3acVOXoSc04w5")
        #expect(token.claims["aud"] == "0oa3en4fIMQ3ddc204w5")
        #expect(token.claims["amr"] == ["pwd"])
        #expect(token.claims["idp"] == "00o2q5hmLAEXTnZlh4w5")
        #expect(token.claims["at_hash"] == "Wlcwzt-s3sxOq0Y_DSspag")
        #expect(token.expiresAt == Date(timeIntervalSince1970: 1_642_536_162))
        #expect(token.date("auth_time") == Date(timeIntervalSince1970: 1_642_532_561))
        #expect(token.notBefore == nil)
    }

    @Test func anUnsignedTokenDecodesWithAnEmptySignatureAndSurroundingWhitespaceIgnored() throws {
        let token = try TestKeys.craft(header: ["alg": "none", "typ": "JWT"], claims: ["sub": "x", "exp": 5])
        let decoded = try DecodedJWT("  \(token)\n")
        #expect(decoded.algorithm == "none")
        #expect(decoded.type == "JWT")
        #expect(decoded.keyID == nil)
        #expect(decoded.signature.isEmpty)
        #expect(decoded.expiresAt == Date(timeIntervalSince1970: 5))
        #expect(decoded.issuedAt == nil)
        #expect(decoded.signingInput + "." == token)
    }

    @Test func wrongPartCountsAreInvalidInput() {
        #expect(Self.invalidInputMessage("") == "the token is empty")
        #expect(Self.invalidInputMessage("abc") == "the token has 1 part separated by \".\"; a JWT has 3 (header.payload.signature)")
        #expect(Self.invalidInputMessage("a.b") == "the token has 2 parts separated by \".\"; a JWT has 3 (header.payload.signature)")
        #expect(Self.invalidInputMessage("a.b.c.d") == "the token has 4 parts separated by \".\"; a JWT has 3 (header.payload.signature)")
        #expect(Self.invalidInputMessage("a.b.c.d.e") == "the token has 5 parts: it is an encrypted JWT (JWE), which idflow cannot decode")
    }

    @Test func badBase64urlIsInvalidInput() throws {
        let header = TestKeys.base64URL(Data(#"{"alg":"RS256"}"#.utf8))
        let payload = TestKeys.base64URL(Data(#"{"sub":"x"}"#.utf8))
        #expect(Self.invalidInputMessage("he@der.\(payload).sig") == "the token's header (part 1) is not valid base64url")
        #expect(Self.invalidInputMessage("\(header).\(payload)==.sig") == "the token's payload (part 2) is not valid base64url")
        // Standard base64 characters are not base64url.
        #expect(Self.invalidInputMessage("\(header).\(payload).ab+/") == "the token's signature (part 3) is not valid base64url")
        #expect(Self.invalidInputMessage(".\(payload).sig") == "the token's header (part 1) is empty")
    }

    @Test func nonJSONOrNonObjectPartsAreInvalidInput() {
        let header = TestKeys.base64URL(Data(#"{"alg":"RS256"}"#.utf8))
        #expect(
            Self.invalidInputMessage("\(header).\(TestKeys.base64URL(Data("hello".utf8))).sig")
                == "the token's payload (part 2) is not JSON")
        #expect(
            Self.invalidInputMessage("\(header).\(TestKeys.base64URL(Data("[1,2]".utf8))).sig")
                == "the token's payload (part 2) is JSON but not an object")
        #expect(
            Self.invalidInputMessage("\(TestKeys.base64URL(Data("\"RS256\"".utf8))).\(header).sig")
                == "the token's header (part 1) is JSON but not an object")
    }

    @Test func messagesNeverQuoteTheToken() {
        let secretish = "eyJzZWNyZXQiOiJ0b3Agc2VjcmV0In0"
        let message = Self.invalidInputMessage("\(secretish).\(secretish)")
        #expect(message?.contains(secretish) == false)
    }
}
