import Foundation
import IdFlowCore
import Testing

struct RedactorTests {
    @Test func masksSecretMembersAtAnyDepth() throws {
        let body = Data(
            #"{"stateToken":"00abc","newPassword":"Secret1!","_embedded":{"user":{"id":"00u1"}},"credentials":{"password":{"value":"x"}},"items":[{"sessionToken":"20zz"}]}"#
                .utf8)
        let text = Redactor.body(body, contentType: "application/json")
        for secret in ["00abc", "Secret1!", "\"x\"", "20zz"] {
            #expect(!text.contains(secret), "\(secret) leaked in \(text)")
        }
        #expect(text.contains("00u1"), "non-secret values stay readable")
    }

    @Test func masksActivationLinksAndTokenQueryParameters() {
        #expect(Redactor.url("https://o.okta.com/tokens/U_YIAd2GM4DJ8ZDkH7Qv/verify") == "https://o.okta.com/tokens/<redacted>/verify")
        #expect(Redactor.url("https://o.okta.com/welcome/U1uFQ4LZpbyyiMe7Tw_t") == "https://o.okta.com/welcome/<redacted>")
        let authorize = Redactor.url("https://o/oauth2/default/v1/authorize?client_id=abc&sessionToken=20secret&state=s1")
        #expect(!authorize.contains("20secret"))
        #expect(authorize.contains("client_id=abc"))
        #expect(authorize.contains("state=s1"))
        let callback = Redactor.url("com.example.app:/callback?code=thecode&state=s")
        #expect(!callback.contains("thecode"))
    }

    @Test func masksFormFields() {
        let form = Redactor.body(
            Data("grant_type=authorization_code&code=abc&code_verifier=verifier&client_id=c1".utf8),
            contentType: "application/x-www-form-urlencoded")
        #expect(!form.contains("abc&"))
        #expect(!form.contains("verifier&"))
        #expect(form.contains("client_id=c1"))
        #expect(form.contains("grant_type=authorization_code"))
    }

    @Test func masksCredentialsInHeadersButKeepsTheScheme() {
        #expect(Redactor.header(name: "Authorization", value: "SSWS 00token") == "SSWS <redacted>")
        #expect(Redactor.header(name: "authorization", value: "Bearer eyJ.x.y") == "Bearer <redacted>")
        #expect(Redactor.header(name: "Set-Cookie", value: "sid=abc") == "<redacted>")
        #expect(Redactor.header(name: "Location", value: "http://127.0.0.1:1/cb?code=c0de&state=s").contains("c0de") == false)
        #expect(Redactor.header(name: "Content-Type", value: "application/json") == "application/json")
    }

    @Test func tokensInResponsesAreMasked() {
        let body = Data(
            #"{"access_token":"eyA","refresh_token":"rt","id_token":"eyI","token_type":"Bearer","activationUrl":"https://o/welcome/tok","activationToken":"tok"}"#
                .utf8)
        let text = Redactor.body(body, contentType: "application/json")
        for secret in ["eyA", "\"rt\"", "eyI", "tok\""] {
            #expect(!text.contains(secret), "\(secret) leaked in \(text)")
        }
        #expect(text.contains("Bearer"))
    }

    @Test func secretDescriptionNeverShowsTheValue() {
        let secret = Secret("hunter2")
        #expect("\(secret)" == "<redacted>")
        #expect(String(reflecting: secret).contains("hunter2") == false)
    }
}
