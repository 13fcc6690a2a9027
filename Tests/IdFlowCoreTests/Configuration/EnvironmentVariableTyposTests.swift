import Foundation
import IdFlowCore
import IdFlowFoundation
import IdFlowTestSupport
import Testing

/// A misspelt IDFLOW_* or OKTA_* variable is named with the one it is close to, never with its value.
struct EnvironmentVariableTyposTests {
    @Test(arguments: [
        ("IDFLOW_STATEDIR", "IDFLOW_STATE_DIR"), ("IDFLOW_PROFLE", "IDFLOW_PROFILE"), ("OKTA_CLIENT_ORG_URL", "OKTA_CLIENT_ORGURL"),
        ("OKTA_CLIENT_TOKN", "OKTA_CLIENT_TOKEN"),
    ])
    func aMisspeltVariableIsNamedWithTheOneMeant(typo: String, meant: String) {
        let warnings = EnvironmentVariableTypos.warnings(in: [typo: "s3cret-value-never-shown", "PATH": "/usr/bin"])
        #expect(warnings == ["warning: \(typo) is not a variable idflow reads, so it is ignored; did you mean \(meant)?"])
        #expect(!warnings.joined().contains("s3cret-value-never-shown"))
    }

    @Test func knownAndUnrelatedVariablesSayNothing() {
        let environment = [
            "IDFLOW_STATE_DIR": "/tmp/s", "OKTA_CLIENT_ORGURL": "https://x.okta.com", "OKTA_CLIENT_TOKEN": "t",
            "OKTA_CLIENT_CONNECTIONTIMEOUT": "30", "OKTA_CLIENT_PROXY_HOST": "proxy", "IDFLOW_BIN": "/bin/idflow",
            "HOME": "/home/jo", "OKTA_STATEDIR": "x",
        ]
        #expect(EnvironmentVariableTypos.warnings(in: environment) == [])
    }

    /// Every IDFLOW_* and OKTA_* name the sources, the manifest and the scripts read is known, so a variable added
    /// later is never taken for a typo of another.
    @Test func everyVariableTheSourcesReadIsKnown() throws {
        let root = Fixtures.packageRoot
        var texts: [String] = []
        let sources = FileManager.default.enumerator(at: root.appendingPathComponent("Sources"), includingPropertiesForKeys: nil)
        for case let file as URL in sources?.allObjects ?? [] where file.pathExtension == "swift" {
            texts.append(try String(contentsOf: file, encoding: .utf8))
        }
        var names = Set(texts.flatMap { $0.matches(of: /"((?:OKTA|IDFLOW)_[A-Z0-9_]+)"/).map { String($0.output.1) } })
        let scripts = try FileManager.default.contentsOfDirectory(atPath: root.appendingPathComponent("scripts").path)
            .filter { $0.hasSuffix(".sh") }.map { "scripts/\($0)" }
        for path in ["Package.swift"] + scripts {
            let text = try String(contentsOf: root.appendingPathComponent(path), encoding: .utf8)
            names.formUnion(text.matches(of: /\b((?:OKTA|IDFLOW)_[A-Z0-9_]+)\b/).map { String($0.output.1) })
        }
        #expect(names.contains("IDFLOW_STATE_DIR") && names.contains("IDFLOW_PIN"))
        #expect(names.subtracting(EnvironmentVariableTypos.known).sorted() == [])
    }

    /// A command's context warns before its configuration is weighed: the misspelt org URL variable is named
    /// even when the missing org URL is what the run then fails on.
    @Test func theContextOfARunWarns() throws {
        let errors = Locked<[String]>([])
        let console = Console(
            standardOutput: { _ in }, standardError: { data in errors.withLock { $0.append(String(decoding: data, as: UTF8.self)) } },
            readStandardInput: { Data() }, readLine: { nil })
        let home = FileManager.default.temporaryDirectory.appendingPathComponent("typos-\(UUID().uuidString)")
        _ = try IdFlowContext.resolve(
            flags: ConfigurationFlags(), environment: ["HOME": home.path, "OKTA_CLIENT_ORG_URL": "https://x.okta.com"],
            console: console)
        #expect(errors.current.contains { $0.contains("OKTA_CLIENT_ORG_URL") && $0.contains("did you mean OKTA_CLIENT_ORGURL?") })
    }
}
