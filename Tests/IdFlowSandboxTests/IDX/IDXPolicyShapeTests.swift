import Foundation
import IdFlowSandbox
import Testing

/// The `idx` key's newer shape (`enroll`, `signIn`, `numberChallenge`) beside the older `authenticators`.
@Suite struct IDXPolicyShapeTests {
    static func load(_ json: String) throws -> IDXPolicy { try IDXPolicyConfigurationTests.load(json).idx }

    @Test func theNewerShapeIsRead() throws {
        let policy = try Self.load(
            #"{"idx": {"enroll": {"required": ["password","email"], "optional": ["phone","security_question","google_otp","okta_verify"]}, "signIn": {"factors": 2}, "signUp": true, "numberChallenge": true}}"#
        )
        #expect(policy.required == [.password, .email])
        #expect(policy.optional == [.phone, .securityQuestion, .googleOTP, .oktaVerify])
        #expect(policy.factors == 2 && policy.signUp && policy.numberChallenge)
        #expect(try Self.load(#"{"idx": {"enroll": {"required": ["password"]}}}"#) == IDXPolicy(required: [.password], factors: 1))
    }

    @Test(arguments: [
        (#"{"authenticators": ["password"]}"#, IDXPolicy(required: [.password], factors: 1)),
        (#"{"authenticators": ["password","email"]}"#, IDXPolicy(required: [.password, .email], factors: 2)),
        (
            #"{"authenticators": ["password","okta_verify"], "signUp": false}"#,
            // Okta Verify is the push alone in this shape, as before the newer one existed.
            {
                var policy = IDXPolicy(required: [.password, .oktaVerify], factors: 2, signUp: false)
                policy.oktaVerifyTOTP = false
                return policy
            }()
        ),
    ])
    func theOlderShapesMeanTheirAuthenticatorsRequiredAndEachAFactor(json: String, expected: IDXPolicy) throws {
        #expect(try Self.load(#"{"idx": \#(json)}"#) == expected)
    }

    @Test(arguments: [
        (#"{"idx": {"enroll": {"required": ["email"]}}}"#, "must contain \"password\""),
        (
            #"{"idx": {"enroll": {"required": ["password"], "optional": ["sms"]}}}"#,
            #"unknown authenticator "sms"; known: password, email, phone"#
        ),
        (#"{"idx": {"enroll": {"required": ["password", "phone"], "optional": ["phone"]}}}"#, #""phone" is named twice"#),
        (#"{"idx": {"enroll": {"required": ["password"]}, "signIn": {"factors": 2}}}"#, "\"idx.signIn.factors\": must be from 1 to 1"),
        (#"{"idx": {"signIn": {"factors": 0}}}"#, "idx.signIn.factors"),
        (#"{"idx": {"enroll": {"mandatory": ["password"]}}}"#, "unknown key(s) mandatory (known keys: required, optional)"),
        (#"{"idx": {"signIn": {"factor": 2}}}"#, "unknown key(s) factor"),
        (#"{"idx": {"authenticators": ["password"], "enroll": {"required": ["password"]}}}"#, "not both"),
        (#"{"idx": {"numberChallenge": "yes"}}"#, "idx"),
    ])
    func badPoliciesAreRefusedSayingWhatIsAllowed(json: String, expected: String) throws {
        let error = try #require(throws: SandboxConfigurationError.self) { try IDXPolicyConfigurationTests.load(json) }
        #expect(String(describing: error).contains(expected), "\(json): \(error)")
    }

    @Test func thePolicyReadsBackFromWhatInfoShows() throws {
        let policy = IDXPolicy(required: [.password, .email], optional: [.phone], factors: 2, signUp: false, numberChallenge: true)
        let data = try JSONEncoder().encode(policy)
        #expect(try JSONDecoder().decode(IDXPolicy.self, from: data) == policy)
    }
}
