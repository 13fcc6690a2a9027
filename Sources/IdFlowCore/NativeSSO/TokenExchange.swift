import Foundation
import IdFlowFoundation

/// `token exchange`: RFC 8693 against any provider. The subject comes from a file or a stored login; the client
/// proves itself as `login-client`'s does. Prints the response with `expires_at`; stores only with `--store-as`.
public struct TokenExchange: Sendable {
    public enum Subject: Sendable, Equatable {
        case file(String)
        case profile(String, TokenKind)
    }

    public var subject: Subject
    public var subjectTokenType: String?
    public var actorTokenFile: String?
    public var actorTokenType: String?
    public var requestedTokenType: String?
    public var audience: String?
    public var resources: [String]
    public var clientID: String?
    public var clientSecret: Secret?
    public var storeAs: String?

    public init(
        subject: Subject, subjectTokenType: String?, actorTokenFile: String?, actorTokenType: String?, requestedTokenType: String?,
        audience: String?, resources: [String], clientID: String?, clientSecret: Secret?, storeAs: String?
    ) {
        self.subject = subject
        self.subjectTokenType = subjectTokenType
        self.actorTokenFile = actorTokenFile
        self.actorTokenType = actorTokenType
        self.requestedTokenType = requestedTokenType
        self.audience = audience
        self.resources = resources
        self.clientID = clientID
        self.clientSecret = clientSecret
        self.storeAs = storeAs
    }

    public func run(_ context: IdFlowContext) async throws(IdFlowError) -> TokenOutput {
        let (subjectToken, subjectType, storedIssuer) = try self.subjectToken(context)
        guard (actorTokenFile == nil) == (actorTokenType == nil) else {
            throw .invalidInput("--actor-token-file and --actor-token-type go together")
        }
        let actor = try actorTokenFile.map { path throws(IdFlowError) in try context.secrets.read("actor token", from: .file(path)).value }
        let issuer = try DiscoveredIssuer.resolve(context.configuration.issuer ?? storedIssuer, context)
        let client = try ClientProof.credentials(context, clientID: clientID, clientSecret: clientSecret, command: "token exchange")
        let server = AuthorizationServer(discovered: try await DiscoveredIssuer.discover(context, issuer: issuer), client: client)
        let reservation = try storeAs.map { name throws(IdFlowError) in try StoredLogin.store(of: name, context).reserve() }
        let response = try await server.http.send(
            TokenExchangeRequest(
                tokenEndpoint: server.metadata.tokenEndpoint, client: client, subjectToken: subjectToken, subjectTokenType: subjectType,
                actorToken: actor, actorTokenType: actorTokenType.map(TokenTypeURN.expand),
                requestedTokenType: requestedTokenType.map(TokenTypeURN.expand), audience: audience, resources: resources,
                scope: context.configuration.explicitScope, signInAgain: "get a new subject token and try again"))
        let (output, record) = server.result(response, claims: nil, previous: nil)
        if let storeAs, let reservation {
            try await StoredLogin.store(of: storeAs, context).saveUnderLock(record, into: reservation, context)
            context.message("the exchanged tokens were saved for profile \(storeAs)")
        }
        return output
    }

    /// The subject token, its type, and the issuer of the stored login it came from (where it is good).
    func subjectToken(_ context: IdFlowContext) throws(IdFlowError) -> (String, String, URL?) {
        switch subject {
        case .file(let path):
            guard let subjectTokenType else {
                throw .invalidInput("--subject-token-file needs --subject-token-type", hint: "access, id, refresh, jwt or a URN")
            }
            return (try context.secrets.read("subject token", from: .file(path)).value, TokenTypeURN.expand(subjectTokenType), nil)
        case .profile(let name, let kind):
            let stored = try StoredLogin.load(name, context, hint: "log in to profile \(name) first, or pass --subject-token-file")
            guard let token = stored.token(kind) else {
                throw .localState("the login of profile \(name) has no \(kind.rawValue.replacingOccurrences(of: "_", with: " "))")
            }
            return (token, subjectTokenType.map(TokenTypeURN.expand) ?? TokenTypeURN.expand(kind.rawValue), try StoredLogin.issuer(stored))
        }
    }
}
