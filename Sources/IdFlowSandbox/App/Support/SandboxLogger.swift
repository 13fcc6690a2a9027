import Foundation
import Logging

/// The sandbox's logger: always stderr (the CLI's stdout is a JSON contract), quiet by default.
enum SandboxLogger {
    /// Reads the level from `IDFLOW_SANDBOX_LOG` (`trace` … `critical`), defaulting to `warning`.
    static func make() -> Logger {
        var logger = Logger(label: "idflow.sandbox", factory: { label in StreamLogHandler.standardError(label: label) })
        let requested = ProcessInfo.processInfo.environment["IDFLOW_SANDBOX_LOG"]?.lowercased()
        logger.logLevel = requested.flatMap(Logger.Level.init(rawValue:)) ?? .warning
        return logger
    }
}
