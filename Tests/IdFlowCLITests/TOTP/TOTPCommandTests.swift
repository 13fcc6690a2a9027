import Foundation
import IdFlowCore
import IdFlowFoundation
import IdFlowTestSupport
import OneTimePasscode
import Testing

@testable import idflow

/// `idflow totp`: the code a phone would show for a kept seed, for runbooks that answer elsewhere.
struct TOTPCommandTests {
    static let seed = "GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ"

    func seedFile(mode: Int) throws -> String {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("totp-cli-\(UUID().uuidString)")
        try (Self.seed + "\n").write(to: url, atomically: true, encoding: .utf8)
        try FileManager.default.setAttributes([.posixPermissions: mode], ofItemAtPath: url.path)
        return url.path
    }

    /// The codes of the steps around the run: the run may cross a step boundary.
    func codesNow() -> Set<String> {
        let totp = TOTP(secret: TOTPSecret(base32: Self.seed)!)
        let step = totp.step(at: Date())
        return [totp.code(forStep: step), totp.code(forStep: step + 1)]
    }

    @Test func theCodeOfASeedFileOrStdinIsPrinted() async throws {
        let fromFile = await CLI.run(["totp", "--secret-file", try seedFile(mode: 0o600)])
        #expect(fromFile.exitCode == 0, "\(fromFile.stderr)")
        #expect(codesNow().contains(fromFile.json?["code"]?.stringValue ?? ""))
        #expect(fromFile.json?["period"] == 30)
        let expiresIn = try #require(fromFile.json?["expiresIn"]?.intValue)
        #expect((1...30).contains(expiresIn))

        let fromStdin = await CLI.run(["totp", "--secret-stdin"], stdin: Self.seed.lowercased() + "\n")
        #expect(fromStdin.exitCode == 0, "\(fromStdin.stderr)")
        #expect(codesNow().contains(fromStdin.json?["code"]?.stringValue ?? ""))
    }

    @Test func aSeedOthersCanReadIsRefusedAndTheSourceMustBeOne() async throws {
        let open = await CLI.run(["totp", "--secret-file", try seedFile(mode: 0o644)])
        #expect(open.exitCode != 0)
        #expect(open.stdout.isEmpty)
        #expect(!open.stderr.contains(Self.seed))
        let neither = await CLI.run(["totp"])
        #expect(neither.exitCode == 64)
        #expect(neither.stderr.contains("choose exactly one of --secret-file or --secret-stdin"))
        let notBase32 = await CLI.run(["totp", "--secret-stdin"], stdin: "1234-not-a-seed\n")
        #expect(notBase32.exitCode == 64)
        #expect(notBase32.stderr.contains("not Base32"))
    }
}
