import Foundation
import HTTPTypes
import OneTimePasscode
import Testing

@testable import IdFlowSandbox

/// Direct Authentication's attempt limits (`passwordPolicy.lockout.maxCodeAttempts`) and its store's purge.
@Suite("direct auth: limits and purge")
struct DirectAuthLimitsTests {
    static let invalidOTP = "The 'otp' provided is either empty or incorrect. Use the correct OTP and try again."

    @Test("wrong SMS codes up to maxCodeAttempts end the OOB: the right code then finds it expired")
    func bindingCodeAttempts() async throws {
        try await withSandbox(configure: { $0.passwordPolicy.lockout.maxCodeAttempts = 2 }) { api in
            _ = try await api.registerActiveUser(email: "ada@example.com")
            try await api.giveRecoveryFactors("ada@example.com", phone: "+14155550100")
            let oobCode = try #require(
                try await api.primaryAuthenticate("ada@example.com", channel: "sms").object()["oob_code"] as? String)
            let code = try #require(try await api.lastMessage(to: "+14155550100")["code"] as? String)
            for _ in 0..<2 {
                try await api.directToken(SandboxClient.oobGrant, [("oob_code", oobCode), ("binding_code", ""), ("scope", "openid")])
                    .expectDirectAuthError(.badRequest, "invalid_grant", Self.invalidOTP)
            }
            try await api.directToken(SandboxClient.oobGrant, [("oob_code", oobCode), ("binding_code", code), ("scope", "openid")])
                .expectDirectAuthError(.forbidden, "access_denied", "'oob_code' has expired. Use a new 'oob_code' and try again.")
        }
    }

    @Test("wrong OTPs up to maxCodeAttempts end the mfa_token")
    func otpAttempts() async throws {
        try await withSandbox(configure: {
            $0.freezeClock = true
            $0.passwordPolicy.lockout.maxCodeAttempts = 2
        }) { api in
            let device = try await api.enrollDevice(email: "ada@example.com")
            let mfaToken = try await api.mfaToken("ada@example.com")
            for _ in 0..<2 {
                try await api.directToken(SandboxClient.mfaOTPGrant, [("mfa_token", mfaToken), ("otp", "000000")])
                    .expectDirectAuthError(.badRequest, "invalid_grant", Self.invalidOTP)
            }
            try await api.directToken(SandboxClient.mfaOTPGrant, [("mfa_token", mfaToken), ("otp", try await api.totpCode(device))])
                .expectDirectAuthError(.forbidden, "access_denied", "'mfa_token' has expired. Use a new 'mfa_token' and try again.")
        }
    }

    @Test("expired transactions are purged and counted in /sandbox/records")
    func purge() async throws {
        try await withSandbox(configure: { $0.freezeClock = true }) { api in
            _ = try await api.enrollDevice(email: "ada@example.com")
            _ = try await api.primaryAuthenticate("ada@example.com")
            _ = try await api.mfaToken("ada@example.com")
            var records = try await api.records()
            #expect(records["directAuthOOBTransactions"] as? Int == 1 && records["directAuthMFATransactions"] as? Int == 1)
            try await api.advanceClock(seconds: 301)
            await api.state.purgeExpiredRecords()
            records = try await api.records()
            #expect(records["directAuthOOBTransactions"] as? Int == 0 && records["directAuthMFATransactions"] as? Int == 0)
        }
    }
}
