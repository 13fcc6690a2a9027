import Foundation
import Hummingbird

extension Request {
    /// The query string parsed with `+` as space (as browsers and Okta's servers do).
    var queryParameters: FormParameters { FormParameters(uri.query) }

    /// The raw body, or empty data when there is none (lifecycle calls often send none).
    mutating func bodyData(context: SandboxRequestContext) async throws -> Data {
        let buffer = try await collectBody(upTo: context.maxUploadSize)
        return Data(buffer.readableBytesView)
    }

    /// Decodes a JSON body, or returns nil when the body is empty.
    /// Anything that is not the expected JSON is Okta's E0000003.
    mutating func decodeJSONBody<Body: Decodable>(
        _ type: Body.Type, context: SandboxRequestContext
    ) async throws -> Body? {
        let data = try await bodyData(context: context)
        if data.allSatisfy({ $0 == 0x20 || $0 == 0x0A || $0 == 0x0D || $0 == 0x09 }) { return nil }
        do {
            return try JSONDecoder().decode(Body.self, from: data)
        } catch {
            throw OktaErrorResponse.malformedBody
        }
    }

    /// Decodes a JSON body that must be there: an empty one is Okta's E0000003 as well.
    mutating func requireJSONBody<Body: Decodable>(_ type: Body.Type, context: SandboxRequestContext) async throws -> Body {
        guard let body = try await decodeJSONBody(type, context: context) else { throw OktaErrorResponse.malformedBody }
        return body
    }

    /// Parses an `application/x-www-form-urlencoded` body.
    mutating func formBody(context: SandboxRequestContext) async throws -> FormParameters {
        let data = try await bodyData(context: context)
        return FormParameters(String(decoding: data, as: UTF8.self))
    }

    /// A path parameter, percent-decoded (logins such as `a%40b.c` arrive encoded).
    func pathParameter(_ name: String, context: SandboxRequestContext) -> String {
        let raw = context.parameters.get(name) ?? ""
        return raw.removingPercentEncoding ?? raw
    }
}
