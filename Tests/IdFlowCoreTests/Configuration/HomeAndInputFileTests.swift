import Foundation
import IdFlowCore
import IdFlowFoundation
import IdFlowTestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// Paths the user names: `~` is `$HOME` as the shell has it, and a file read once may be a pipe.
struct HomeAndInputFileTests {
    func resolver(_ environment: [String: String]) -> ConfigurationResolver {
        ConfigurationResolver(
            environment: environment, secrets: SecretReader(readStandardInput: { Data() }, environment: environment, warn: { _ in }))
    }

    /// A throwaway home whose config.yaml holds `profiles`.
    func home(profiles: String) throws -> URL {
        let home = FileManager.default.temporaryDirectory.appendingPathComponent("idflow-home-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: home.appendingPathComponent(".config/idflow"), withIntermediateDirectories: true)
        try profiles.write(to: home.appendingPathComponent(".config/idflow/config.yaml"), atomically: true, encoding: .utf8)
        return home
    }

    @Test func aProfilesTildePathIsReadFromHOMENotThePasswordDatabase() throws {
        let home = try home(profiles: "profiles:\n  default:\n    apiTokenFile: ~/tokA\n    stateDir: ~/state\n")
        defer { try? FileManager.default.removeItem(at: home) }
        try "token-from-HOME\n".write(to: home.appendingPathComponent("tokA"), atomically: true, encoding: .utf8)
        let configuration = try resolver(["HOME": home.path]).resolve(ConfigurationFlags())
        #expect(configuration.apiToken == Secret("token-from-HOME"))
        #expect(configuration.stateDirectory.path == home.appendingPathComponent("state").path)
    }

    @Test func tildeExpansion() {
        let environment = ["HOME": "/tmp/x"]
        #expect(HomeDirectory.expand("~/a/b", environment: environment) == "/tmp/x/a/b")
        #expect(HomeDirectory.expand("~", environment: environment) == "/tmp/x")
        #expect(HomeDirectory.expand("/abs/~/c", environment: environment) == "/abs/~/c")
        #expect(HomeDirectory.expand("rel", environment: environment) == "rel")
    }

    /// `--client-secret-file <(printf %s "$S")` is a pipe: it has no size and can be read once.
    @Test func aSecretFileMayBeAPipe() throws {
        var fds: [Int32] = [0, 0]
        #expect(pipe(&fds) == 0)
        let secret = "s3cr3t-from-a-pipe"
        _ = secret.withCString { write(fds[1], $0, strlen($0)) }
        close(fds[1])
        defer { close(fds[0]) }
        let reader = SecretReader(readStandardInput: { Data() }, environment: [:], warn: { _ in })
        #expect(try reader.read("client secret", from: .file("/dev/fd/\(fds[0])")) == Secret(secret))
    }

    @Test func aSecretFileMayBeAFIFO() async throws {
        let fifo = FileManager.default.temporaryDirectory.appendingPathComponent("idflow-fifo-\(UUID().uuidString)").path
        #expect(mkfifo(fifo, 0o600) == 0)
        defer { unlink(fifo) }
        let writer = Thread {
            let fd = open(fifo, O_WRONLY)
            _ = "from-a-fifo\n".withCString { write(fd, $0, strlen($0)) }
            close(fd)
        }
        writer.start()
        let reader = SecretReader(readStandardInput: { Data() }, environment: [:], warn: { _ in })
        #expect(try reader.read("password", from: .file(fifo)) == Secret("from-a-fifo"))
    }

    @Test func aMissingFileIsStillAnErrorNamingIt() {
        let reader = SecretReader(readStandardInput: { Data() }, environment: [:], warn: { _ in })
        #expect {
            try reader.read("password", from: .file("/nonexistent/pw"))
        } throws: { ($0 as? IdFlowError)?.message == "cannot read the password from /nonexistent/pw" }
    }

    /// The hint says why: a directory given as a file is named a directory, not sent looking for a missing file.
    @Test func anUnreadableFileSaysWhyInItsHint() throws {
        let reader = SecretReader(readStandardInput: { Data() }, environment: [:], warn: { _ in })
        func hint(_ path: String) -> String? {
            do {
                _ = try reader.read("password", from: .file(path))
                return nil
            } catch {
                return (error as? IdFlowError)?.hint
            }
        }
        #expect(hint(FileManager.default.temporaryDirectory.path) == "it is a directory: name a file inside it")
        #expect(hint("/nonexistent/pw") == "no such file: check the path")
    }

    @Test func anUnknownProfileWithNoProfilesSaysHowToDefineOne() throws {
        let home = FileManager.default.temporaryDirectory.appendingPathComponent("idflow-noprof-\(UUID().uuidString)")
        #expect {
            try resolver(["HOME": home.path]).resolve(ConfigurationFlags(profile: "prod"))
        } throws: { error in
            guard let hint = (error as? IdFlowError)?.hint else { return false }
            return hint.contains("defines no profiles") && hint.contains("profiles: {prod:") && !hint.contains("pick one of: \n")
        }
    }

    @Test func anUnknownProfileNamesTheClosestOne() throws {
        let home = try home(profiles: "profiles:\n  staging:\n    orgUrl: https://s.okta.com\n  prod:\n    orgUrl: https://p.okta.com\n")
        defer { try? FileManager.default.removeItem(at: home) }
        #expect {
            try resolver(["HOME": home.path]).resolve(ConfigurationFlags(profile: "stagign"))
        } throws: { ($0 as? IdFlowError)?.hint == "add it under `profiles:` or pick one of: prod, staging (did you mean \"staging\"?)" }
    }

    @Test func theClientSecretHasOneRule() throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("secret-\(UUID().uuidString)")
        try "from-file\n".write(to: file, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(at: file) }
        let home = FileManager.default.temporaryDirectory.appendingPathComponent("idflow-cs-\(UUID().uuidString)")
        func context(_ environment: [String: String]) throws -> IdFlowContext {
            let environment = environment.merging(["HOME": home.path]) { $1 }
            let configuration = try resolver(environment).resolve(ConfigurationFlags())
            return TestContext.make(transport: ScriptedTransport([]), configuration: configuration, environment: environment)
        }
        #expect(try context([:]).clientSecret(file: nil) == nil, "a public client sends none")
        #expect(try context(["OKTA_OAUTH2_CLIENTSECRET": "from-env"]).clientSecret(file: nil) == Secret("from-env"))
        #expect(try context(["OKTA_OAUTH2_CLIENTSECRET": "from-env"]).clientSecret(file: file.path) == Secret("from-file"))
    }
}

struct SuggestionTests {
    @Test func typosFindTheirWord() {
        #expect(Suggestion.closest(to: "--emial", among: ["--email", "--first-name", "--login"]) == "--email")
        #expect(Suggestion.closest(to: "regsiter", among: ["register", "refresh", "resolve"]) == "register")
        #expect(Suggestion.closest(to: "identifer", among: ["identifier", "rememberMe"]) == "identifier")
        #expect(Suggestion.closest(to: "zzzzzz", among: ["register", "refresh"]) == nil)
        #expect(Suggestion.closest(to: "ab", among: ["cd"]) == nil, "a short word is not everything's typo")
    }
}
