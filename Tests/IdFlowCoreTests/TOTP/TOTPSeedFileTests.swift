import Foundation
import IdFlowCore
import IdFlowFoundation
import IdFlowTestSupport
import OneTimePasscode
import Testing

/// The seed of an authenticator app kept in a file: private, never overwritten, read by `idflow totp`.
struct TOTPSeedFileTests {
    func temporaryDirectory() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("totp-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    @Test func aSeedIsWrittenPrivatelyOnceAndReadBack() throws {
        let file = TOTPSeedFile(try temporaryDirectory().appendingPathComponent("jo.totp"))
        let secret = try #require(TOTPSecret(base32: "AANACLY3MX6EHKJJ"))
        try file.create(secret)
        #expect(try String(contentsOf: file.url, encoding: .utf8) == "AANACLY3MX6EHKJJ\n", "oathtool -b \"$(cat F)\" reads it")
        let mode = try FileManager.default.attributesOfItem(atPath: file.url.path)[.posixPermissions] as? Int
        #expect(mode == 0o600)
        #expect(try file.read() == secret)
        let again = #expect(throws: IdFlowError.self) { try file.create(TOTPSecret.random()) }
        #expect(again?.message.contains("never overwrites a TOTP seed") == true)
        #expect(try file.read() == secret, "the first seed is still there")
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: file.url.deletingLastPathComponent().path)
        #expect(leftovers == ["jo.totp"], "no temporary file is left behind")
    }

    @Test func aSeedOthersCanReadOrThatIsNotBase32IsRefused() throws {
        let directory = try temporaryDirectory()
        let open = directory.appendingPathComponent("open.totp")
        try "AANACLY3MX6EHKJJ\n".write(to: open, atomically: true, encoding: .utf8)
        try FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: open.path)
        #expect(throws: IdFlowError.self) { try TOTPSeedFile(open).read() }
        let garbage = directory.appendingPathComponent("garbage.totp")
        try "not a seed!\n".write(to: garbage, atomically: true, encoding: .utf8)
        try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: garbage.path)
        let error = #expect(throws: IdFlowError.self) { try TOTPSeedFile(garbage).read() }
        #expect(error?.exitStatus == .usage)
        let missing = #expect(throws: IdFlowError.self) { try TOTPSeedFile(directory.appendingPathComponent("none")).read() }
        #expect(missing?.message.contains("does not exist") == true)
    }

    @Test func theCurrentCodeIsPrintedWithItsRemainingSeconds() throws {
        let context = TestContext.make(transport: ScriptedTransport([]), stdin: "gezdgnbvgy3tqojqgezdgnbvgy3tqojq\n")
        var fixed = context
        fixed.now = { Date(timeIntervalSince1970: 1_111_111_109) }
        let output = try CurrentTOTPCode(seed: .standardInput).run(fixed)
        #expect(output == TOTPCodeOutput(secret: TOTPSecret(bytes: Array("12345678901234567890".utf8)), now: fixed.now()))
        #expect(output.code == "081804" && output.period == 30 && output.expiresIn == 1)
    }
}
