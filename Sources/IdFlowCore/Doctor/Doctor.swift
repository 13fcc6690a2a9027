import Foundation
import IdFlowFoundation

/// `idflow doctor`: every check of what can be wrong before a flow starts, in one document. The checks run at
/// once, each bounded by `checkTimeout`, so a slow one neither hides nor delays the others' results; the run
/// never throws, because a configuration no other command can use is one of the things it reports.
public struct Doctor: Sendable {
    public var flags: ConfigurationFlags
    public var environment: [String: String]
    /// `--offline`: the checks that need the network are skipped.
    public var offline: Bool
    public var checkTimeout: Duration
    public var now: @Sendable () -> Date

    public init(
        flags: ConfigurationFlags, environment: [String: String], offline: Bool = false, checkTimeout: Duration = .seconds(15),
        now: @escaping @Sendable () -> Date = { Date() }
    ) {
        self.flags = flags
        self.environment = environment
        self.offline = offline
        self.checkTimeout = checkTimeout
        self.now = now
    }

    /// The names of the checks, in the order of the document.
    public static let checkNames = ["configuration", "org", "discovery", "jwks", "clock", "credentials", "state"]

    /// Runs every check against `resolved` (the context, or the error that kept one from being made) and writes
    /// one line per check on `console`'s stderr.
    public func run(_ resolved: Result<IdFlowContext, IdFlowError>, console: Console) async -> CommandReport<DoctorReport> {
        let resolver = ConfigurationResolver(
            environment: environment, secrets: SecretReader(readStandardInput: { Data() }, environment: [:], warn: { _ in }))
        let provenance = resolver.provenance(flags)
        let configurationCheck = ConfigurationCheck.run(settings: provenance.settings, resolved: resolved)
        let context = try? resolved.get()
        let stateDirectory = context?.configuration.stateDirectory ?? provenance.stateDirectory
        let profile = context?.configuration.profile ?? provenance.settings.first?.value ?? "default"
        let limit = checkTimeout
        let now = now

        async let state = Self.bounded("state", limit, kind: .localState) {
            StateDirectoryCheck.run(stateDirectory: stateDirectory, profile: profile, now: now())
        }
        let network: [DoctorCheck]
        if offline {
            network = ["org", "discovery", "jwks", "clock", "credentials"].map { DoctorCheck($0, .skipped, "offline") }
        } else if let context {
            let configuration = context.configuration
            var http = context.http
            http.timeout = min(configuration.timeout, limit)
            http.retryPolicy = RetryPolicy(maxRetries: 0)
            let client = http
            let requestTimeout = client.timeout
            async let org = Self.bounded("org", limit) { await OrgCheck.run(configuration: configuration, timeout: requestTimeout) }
            async let discovery = Self.bounded("discovery", limit) { await DiscoveryCheck.run(configuration: configuration, http: client) }
            async let jwks = Self.bounded("jwks", limit) { await JWKSCheck.run(configuration: configuration, http: client) }
            async let clock = Self.bounded("clock", limit) { await ClockCheck.run(configuration: configuration, http: client, now: now) }
            async let credentials = Self.bounded("credentials", limit) {
                await CredentialsCheck.run(configuration: configuration, http: client)
            }
            network = await [org, discovery, jwks, clock, credentials]
        } else {
            network = ["org", "discovery", "jwks", "clock", "credentials"].map {
                DoctorCheck($0, .skipped, "the configuration could not be resolved (see the configuration check)")
            }
        }
        let report = DoctorReport(checks: [configurationCheck] + network + [await state])
        for check in report.checks {
            console.line(Self.summaryLine(check))
        }
        return CommandReport(report, exitStatus: report.exitStatus)
    }

    /// `fail     discovery    the discovery document names …`: one line per check for people.
    static func summaryLine(_ check: DoctorCheck) -> String {
        func padded(_ text: String, _ width: Int) -> String { text + String(repeating: " ", count: max(1, width - text.count)) }
        let detail = check.detail.replacingOccurrences(of: "\n", with: " ")
        return padded(check.status.rawValue, 8) + padded(check.name, 14) + detail + (check.fix.map { " (fix: \($0))" } ?? "")
    }

    /// Runs `body` for at most `limit`: a check still running then is reported as failed, and the run goes on
    /// without waiting for it.
    static func bounded(
        _ name: String, _ limit: Duration, kind: IdFlowExitCode = .network, _ body: @escaping @Sendable () async -> DoctorCheck
    ) async -> DoctorCheck {
        let pending = Locked<CheckedContinuation<DoctorCheck, Never>?>(nil)
        let finish: @Sendable (DoctorCheck) -> Void = { check in
            pending.withLock { continuation in
                continuation?.resume(returning: check)
                continuation = nil
            }
        }
        return await withCheckedContinuation { continuation in
            pending.withLock { $0 = continuation }
            let seconds = Int(limit.inSeconds.rounded(.up))
            let timer = Task {
                try await Task.sleep(for: limit)
                finish(DoctorCheck(name, .fail, "timed out after \(seconds) s", fix: "run the check again, or raise --timeout", kind: kind))
            }
            Task {
                let check = await body()
                timer.cancel()
                finish(check)
            }
        }
    }
}
