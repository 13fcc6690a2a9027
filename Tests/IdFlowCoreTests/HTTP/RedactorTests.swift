import Foundation
import IdFlowCore
import IdFlowFoundation
import IdFlowTestSupport
import Testing

struct RedactorTests {
    /// A proxy setting or URL's user info is masked in the text as given, whether or not it parses as a URL: a
    /// scheme-less `user:secret@host`, a password with an unencoded `/`, `#` or `@`, an IPv6 host that is not valid.
    @Test(arguments: [
        ("http://jo:s3cret@proxy.example:3128", "http://<redacted>@proxy.example:3128"),
        ("jo:s3cret@proxy.example:3128", "<redacted>@proxy.example:3128"),
        ("socks5h://jo:s3/cr#e@t@proxy.example", "socks5h://<redacted>@proxy.example"),
        ("jo:s3cret@[bad", "<redacted>@[bad"),
        ("http://tok3n-only@proxy.example", "http://<redacted>@proxy.example"),
        ("http://proxy.example:3128", "http://proxy.example:3128"),
    ])
    func userInfoIsMaskedEvenWhenTheTextIsNoURL(text: String, shown: String) {
        #expect(Redactor.userInfo(text) == shown)
        #expect(CurlTransport.Options.withoutPassword(text) == shown, "one masking function")
    }

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

    @Test func masksTheValueOfIdentityEngineFieldsWithASecretName() {
        let body = Data(
            #"{"value":[{"name":"stateHandle","value":"02hidden"},{"name":"interaction_code","value":"ic9"},{"name":"grant_type","value":"interaction_code"}]}"#
                .utf8)
        let text = Redactor.body(body, contentType: "application/ion+json; okta-version=1.0.0")
        #expect(!text.contains("02hidden") && !text.contains("ic9"), "\(text)")
        #expect(text.contains("\"interaction_code\""), "field names and public values stay readable")
    }

    /// The recorded Google Authenticator enrollment carries its seed twice: as `sharedSecret` and inside the QR
    /// code's PNG; a trace of it, and of Okta Verify's code and a security answer sent back, shows neither.
    @Test func masksAnAuthenticatorAppsSeedItsQRCodeAndItsCodes() throws {
        let enrollment = try Fixtures.data("okta-idx/google-otp-enroll-qrcode.json")
        let text = Redactor.body(enrollment, contentType: "application/ion+json; okta-version=1.0.0", limit: 1_000_000)
        #expect(!text.contains("AANACLY3MX6EHKJJ"), "the seed leaked")
        #expect(!text.contains("iVBORw0KGgo"), "the QR code's PNG leaked")
        #expect(text.contains("data:image/png;<redacted>"), "the trace still says a picture was there: \(text.prefix(300))")
        for (file, key) in [
            ("swift-directauth-token-mfa_required.json", "mfa_token"), ("swift-directauth-primary-authenticate.json", "oob_code"),
        ] {
            let recorded = try Fixtures.data("okta-directauth/\(file)")
            let secret = try #require(try JSONValue(data: recorded)[key]?.stringValue)
            let shown = Redactor.body(recorded, contentType: "application/json")
            #expect(!shown.contains(secret) && shown.contains(key), "\(file): \(shown)")
        }
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

    @Test func masksTheIdentityEngineAndDeviceSecrets() {
        let body = Data(
            #"{"stateHandle":"02handle","recoveryToken":"VBQ0gwBXT","pin":"4711","client_assertion":"eyJass","credentials":{"passcode":"pc"},"interactionHandle":"ih7"}"#
                .utf8)
        let text = Redactor.body(body, contentType: "application/ion+json; okta-version=1.0.0")
        for secret in ["02handle", "VBQ0gwBXT", "4711", "eyJass", "\"pc\"", "ih7"] {
            #expect(!text.contains(secret), "\(secret) leaked in \(text)")
        }
        let form = Redactor.body(
            Data("client_assertion=eyJa&interaction_code=ic1&client_id=c".utf8), contentType: "application/x-www-form-urlencoded")
        #expect(!form.contains("eyJa") && !form.contains("ic1"))
        #expect(form.contains("client_id=c"))
    }

    @Test func aBodyThatIsNeitherJSONNorAFormIsShownOnlyAsItsSize() {
        let page = Data("<html><body>token=abc123 echoed by a proxy</body></html>".utf8)
        let text = Redactor.body(page, contentType: "text/html")
        #expect(!text.contains("abc123"))
        #expect(text == "<\(page.count) bytes of text/html>")
        #expect(Redactor.body(Data([0xFF, 0x00]), contentType: nil) == "<2 bytes>")
    }
}

struct ProcessHardeningTests {
    @Test func theChildEnvironmentKeepsWhatABrowserNeedsAndDropsSecrets() {
        let environment = [
            "PATH": "/usr/bin", "DISPLAY": ":0", "HOME": "/home/jo", "LANG": "C.UTF-8", "OKTA_CLIENT_TOKEN": "t", "OKTA_CLIENT_ORGURL": "u",
            "IDFLOW_PASSWORD": "p", "IDFLOW_PIN": "1", "IDFLOW_STATE_DIR": "/s", "GITHUB_TOKEN": "g", "AWS_SECRET_ACCESS_KEY": "a",
            "DB_PASSWORD": "d", "SSH_AUTH_SOCK": "/tmp/agent", "SIGNING_KEY": "k",
        ]
        let child = ProcessHardening.childEnvironment(from: environment)
        #expect(Set(child.keys) == ["PATH", "DISPLAY", "HOME", "LANG", "SSH_AUTH_SOCK"])
    }
}
