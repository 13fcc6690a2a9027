import Foundation
import Testing

@testable import IdFlowCore
@testable import IdFlowFoundation

/// What TAB offers for `--profile`, `enroll update|delete` and `--resume`: read from this machine's files,
/// where `idflow` itself would look for them.
struct CompletionCandidatesTests {
    let home = FileManager.default.temporaryDirectory.appendingPathComponent("idflow-completion-\(UUID().uuidString)", isDirectory: true)
    var environment: [String: String] { ["HOME": home.path] }
    var defaultStateDirectory: URL { home.appendingPathComponent(".local/state/idflow", isDirectory: true) }

    func writeProfiles(_ yaml: String) throws {
        let folder = home.appendingPathComponent(".config/idflow", isDirectory: true)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try yaml.write(to: folder.appendingPathComponent("config.yaml"), atomically: true, encoding: .utf8)
    }

    func enroll(_ id: String, org: String, in stateDirectory: URL) throws {
        let folder = try DeviceStore(stateDirectory: stateDirectory).org(URL(string: org)!)
        try folder.save(
            EnrollmentRecord(
                enrollmentId: id, authenticatorId: "aut1", orgUrl: org, orgId: "00o1", oauthClientId: "0oa1", userId: "00u1",
                username: nil, displayName: nil, deviceId: "guo1", clientInstanceId: "cli1", methodEnrollmentId: "opf1",
                pendingUrl: "\(org)/idp/myaccount/app-authenticators/\(id)/push/notifications", selfUrl: nil, pushToken: "",
                proofOfPossessionKeyId: "K1", userVerificationKeyId: nil, createdAt: Date(timeIntervalSince1970: 1_800_000_000)))
    }

    func keep(_ id: String, expiresAt: String?, in stateDirectory: URL) throws {
        var transaction = IDX.Transaction(
            id: id, issuer: "https://o.example.com/oauth2/default", clientID: "0oa1", interactionHandle: "ih", stateHandle: "sh",
            codeVerifier: "verifier", state: "state", nonce: "nonce", scope: "openid")
        transaction.expiresAt = expiresAt
        try StateDirectory.ensure(stateDirectory.appendingPathComponent("idx", isDirectory: true))
        try IDX.Transactions(stateDirectory: stateDirectory).save(transaction)
    }

    @Test func profileNamesComeFromTheProfileFileSorted() throws {
        try writeProfiles("profiles:\n  staging:\n    orgUrl: https://s.example.com\n  default:\n    orgUrl: https://o.example.com\n")
        #expect(
            CompletionCandidates(words: ["idflow", "refresh", "--profile", ""], environment: environment).profileNames() == [
                "default", "staging",
            ])
    }

    @Test func noProfileFileOrABrokenOneOffersNothingAndNeverThrows() throws {
        #expect(CompletionCandidates(words: [], environment: environment).profileNames().isEmpty)
        try writeProfiles("profiles: [unclosed\n")
        #expect(CompletionCandidates(words: [], environment: environment).profileNames().isEmpty)
    }

    @Test func enrollmentIdsComeFromTheStateDirectoryTheCommandWouldUse() throws {
        try enroll("pfdDefault", org: "https://o.example.com", in: defaultStateDirectory)
        #expect(
            CompletionCandidates(words: ["idflow", "enroll", "delete", ""], environment: environment).enrollmentIDs() == ["pfdDefault"])

        // --state-dir typed on the line (quoted, or as --state-dir=…) wins, as it does when the command runs.
        let elsewhere = home.appendingPathComponent("elsewhere", isDirectory: true)
        try enroll("pfdElsewhere", org: "https://o.example.com", in: elsewhere)
        let typed = CompletionCandidates(
            words: ["idflow", "enroll", "delete", "--state-dir", "'\(elsewhere.path)'", ""], environment: environment)
        #expect(typed.enrollmentIDs() == ["pfdElsewhere"])
        let equals = CompletionCandidates(
            words: ["idflow", "enroll", "update", "--state-dir=\(elsewhere.path)", ""], environment: environment)
        #expect(equals.enrollmentIDs() == ["pfdElsewhere"])

        // Then IDFLOW_STATE_DIR, then the profile's stateDir.
        let fromEnvironment = CompletionCandidates(words: [], environment: environment.merging(["IDFLOW_STATE_DIR": elsewhere.path]) { $1 })
        #expect(fromEnvironment.enrollmentIDs() == ["pfdElsewhere"])
        try writeProfiles("profiles:\n  ci:\n    stateDir: \(elsewhere.path)\n")
        #expect(
            CompletionCandidates(words: ["idflow", "enroll", "delete", "--profile", "ci", ""], environment: environment).enrollmentIDs()
                == ["pfdElsewhere"])
    }

    @Test func enrollmentIdsAreThoseOfTheConfiguredOrgWhenThereIsOne() throws {
        try enroll("pfdOne", org: "https://one.example.com", in: defaultStateDirectory)
        try enroll("pfdTwo", org: "https://two.example.com", in: defaultStateDirectory)
        #expect(CompletionCandidates(words: [], environment: environment).enrollmentIDs().sorted() == ["pfdOne", "pfdTwo"])
        let two = CompletionCandidates(
            words: ["idflow", "enroll", "delete", "--org-url", "https://two.example.com", ""], environment: environment)
        #expect(two.enrollmentIDs() == ["pfdTwo"])
        let one = CompletionCandidates(
            words: [], environment: environment.merging(["OKTA_CLIENT_ORGURL": "https://one.example.com"]) { $1 })
        #expect(one.enrollmentIDs() == ["pfdOne"])
    }

    @Test func pendingTransactionsAreTheKeptOnesThatHaveNotExpired() throws {
        try keep("txLive", expiresAt: "2100-01-01T00:00:00.000Z", in: defaultStateDirectory)
        try keep("txNoExpiry", expiresAt: nil, in: defaultStateDirectory)
        try keep("txGone", expiresAt: "2000-01-01T00:00:00.000Z", in: defaultStateDirectory)
        let candidates = CompletionCandidates(words: ["idflow", "login-pkce", "--embedded", "--resume", ""], environment: environment)
        #expect(candidates.pendingTransactionIDs() == ["txLive", "txNoExpiry"])
        // Listing removes nothing: a completion never changes the state.
        let files = try FileManager.default.contentsOfDirectory(atPath: defaultStateDirectory.appendingPathComponent("idx").path)
        #expect(files.count == 3)
    }

    @Test func aMissingStateDirectoryOffersNothing() {
        let candidates = CompletionCandidates(words: ["idflow", "--state-dir", "/nonexistent/idflow"], environment: environment)
        #expect(candidates.enrollmentIDs().isEmpty)
        #expect(candidates.pendingTransactionIDs().isEmpty)
    }
}
