import Foundation
import Testing

@testable import IdFlowCore
@testable import IdFlowFoundation

/// The custom-registration wire as the client reads and writes it (custom-registration.md §2, §3).
@Suite struct TokenServerRequestsTests {
    let endpoint = TokenServerEndpoint(
        tokenServer: URL(string: "https://ts.example.com")!, identityProvider: "sms-otp",
        client: ClientCredentials(clientID: "app1", secret: Secret("s3cret")))

    @Test(arguments: [
        (2000, StatusRange.success), (2999, .success), (2100, .success), (4000, .retry), (4002, .retry), (4999, .retry),
        (5000, .restart), (5999, .restart), (3000, .restart), (1999, .restart), (6000, .restart), (0, .restart), (-4001, .restart),
    ])
    func onlyTheRangeOfAStatusCounts(status: Int, range: StatusRange) {
        #expect(StatusRange(status) == range)
    }

    @Test func tokensNestedInOAuthTokenAsTheDocumentedExample() throws {
        let answer = try endpoint.decodeForTest(
            #"{"status":2000,"oauth_token":{"token_type":"bearer","access_token":"8A5A","refresh_token":"8CAE","id_token":"eyJ","expires_in":3600},"data":"{\"custom_json_key\":\"custom json data\"}"}"#
        )
        #expect(answer.status == 2000)
        #expect(answer.tokens?.accessToken == "8A5A")
        #expect(answer.tokens?.refreshToken == "8CAE")
        #expect(answer.tokens?.idToken == "eyJ")
        #expect(answer.tokens?.expiresIn == 3600)
        #expect(answer.data == .object(["custom_json_key": "custom json data"]))
    }

    @Test func tokensAtTheTopLevelAsTheParameterTableListsThem() throws {
        let answer = try endpoint.decodeForTest(
            #"{"status":2100,"token_type":"Bearer","access_token":"at","expires_in":60,"data":"welcome"}"#)
        #expect(answer.range == .success)
        #expect(answer.tokens?.accessToken == "at")
        #expect(answer.tokens?.refreshToken == nil)
        #expect(answer.data == "welcome")
    }

    @Test func aRetryAnswerHasNoTokensAndKeepsItsDataAsAString() throws {
        let answer = try endpoint.decodeForTest(#"{"status":4002,"data":"012345","transaction_id":"tx1"}"#)
        #expect(answer.range == .retry)
        #expect(answer.tokens == nil)
        #expect(answer.data == "012345")
        #expect(answer.transactionID == "tx1")
    }

    @Test func anAnswerWithoutAStatusOrWithANonBearerTokenIsRefused() {
        #expect(throws: IdFlowError.self) { try endpoint.decodeForTest(#"{"data":"x"}"#) }
        #expect(throws: IdFlowError.self) {
            try endpoint.decodeForTest(#"{"status":2000,"oauth_token":{"token_type":"mac","access_token":"a"}}"#)
        }
    }

    @Test func initAndCompleteArePostedWithBasicAuthAndJSONAndNeverRetried() throws {
        let initRequest = try CustomRegistrationInitRequest(endpoint: endpoint, data: #"{"phone":"+31"}"#).httpRequest()
        #expect(initRequest.method == "POST")
        #expect(initRequest.url.absoluteString == "https://ts.example.com/oauth/custom-registration/sms-otp/init")
        #expect(initRequest.headers["Authorization"] == "Basic " + Data("app1:s3cret".utf8).base64EncodedString())
        #expect(initRequest.headers["Content-Type"] == "application/json")
        #expect(!initRequest.isIdempotent)
        #expect(try JSONValue(data: initRequest.body ?? Data()) == .object(["data": #"{"phone":"+31"}"#]))

        let complete = try CustomRegistrationCompleteRequest(
            endpoint: endpoint, transactionID: "tx1", data: "123456", scopes: ["openid", "offline_access"], profileID: "W8DUJ2"
        ).httpRequest()
        #expect(complete.url.path == "/oauth/custom-registration/sms-otp/complete")
        #expect(
            try JSONValue(data: complete.body ?? Data())
                == .object([
                    "transaction_id": "tx1", "data": "123456", "scope": .array(["openid", "offline_access"]), "profile_id": "W8DUJ2",
                ]))
    }

    @Test func theHTTPErrorsOfTheProtocolCarryAHint() {
        let error = Built.error { () throws(IdFlowError) in
            try CustomRegistrationCompleteRequest(endpoint: endpoint, transactionID: "tx1", data: nil, scopes: [], profileID: "ABCDEF")
                .decode(Built.response(400, #"{"error":"invalid_transaction","error_description":"expired"}"#))
        }
        #expect(error?.exitStatus == .notFound)
        #expect(error?.hint?.contains("start the registration again") == true)
    }

    @Test func identityProviderIdsThatWouldChangeThePathAreRefused() {
        for bad in ["", "..", "a/b", "a?b", "x y"] {
            #expect(throws: IdFlowError.self) { try TokenServerEndpoint.checkIdentifier(bad) }
        }
        #expect(throws: Never.self) { try TokenServerEndpoint.checkIdentifier("New2step_v1.2-x") }
    }

    @Test func dataArgumentsNameTextAFileOrStandardInput() {
        #expect(RegistrationData(argument: "K7Q2") == .argument("K7Q2"))
        #expect(RegistrationData(argument: "@code.txt") == .file("code.txt"))
        #expect(RegistrationData(argument: "-") == .standardInput)
        #expect(RegistrationData(argument: "@") == .argument("@"))
    }

    @Test func theTraceMasksTheDataOfCustomRegistrationOnly() {
        let body = Data(#"{"data":"K7Q2","transaction_id":"tx1","profile_id":"ABCDEF"}"#.utf8)
        let masked = Redactor.body(body, contentType: "application/json", url: "https://ts/oauth/custom-registration/x/complete")
        #expect(!masked.contains("K7Q2") && !masked.contains("tx1") && masked.contains("ABCDEF"))
        #expect(Redactor.body(Data(#"{"data":"plain"}"#.utf8), contentType: "application/json").contains("plain"))
    }
}

extension TokenServerEndpoint {
    fileprivate func decodeForTest(_ body: String) throws(IdFlowError) -> CustomRegistrationAnswer {
        try CustomRegistrationCompleteRequest(endpoint: self, transactionID: nil, data: nil, scopes: [], profileID: "ABCDEF")
            .decode(Built.response(200, body))
    }
}
