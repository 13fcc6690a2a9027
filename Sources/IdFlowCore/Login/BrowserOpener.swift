import Foundation
import IdFlowFoundation

/// Opens a URL in the user's browser: `$BROWSER` when set (the first of its `:`-separated commands, `%s`
/// standing for the URL, else the URL appended), otherwise `xdg-open` (or `open` on macOS).
public struct BrowserOpener: Sendable {
    public var environment: [String: String]

    public init(environment: [String: String]) {
        self.environment = environment
    }

    /// Says `headline` and the URL (the person can always open it by hand), then starts the browser, noting
    /// on the same channel if it could not start.
    public func open(_ url: URL, saying headline: String, to message: (String) -> Void) {
        message(headline)
        message(url.absoluteString)
        if let problem = open(url) { message(problem) }
    }

    /// Starts the browser and returns at once; a browser that cannot start is reported, not fatal,
    /// because the URL is printed too.
    ///
    /// Only an https URL, or http on loopback, is handed to the browser: the URL may come from a server, and a
    /// `file:`, `javascript:` or `smb:` link (or anything a launcher could read as an option) is not for it.
    public func open(_ url: URL) -> String? {
        guard (try? TransportSecurity.check(url)) != nil, url.host?.isEmpty == false, !url.absoluteString.hasPrefix("-") else {
            return "not opening \(TerminalText.safe(url.absoluteString)) in a browser: only https (or http on this machine) URLs are opened"
        }
        let executable: String
        let arguments: [String]
        if let browser = environment["BROWSER"]?.split(separator: ":").first.map(String.init), !browser.isEmpty {
            // The URL is passed as "$1", never spliced into the shell text, so it cannot inject commands.
            let command = browser.contains("%s") ? browser.replacingOccurrences(of: "%s", with: "\"$1\"") : "\(browser) \"$1\""
            executable = "/bin/sh"
            arguments = ["-c", command, "idflow-browser", url.absoluteString]
        } else {
            executable = "/usr/bin/env"
            #if os(macOS)
                arguments = ["open", url.absoluteString]
            #else
                arguments = ["xdg-open", url.absoluteString]
            #endif
        }
        do {
            // The browser gets the caller's environment without a single secret of idflow's (see ProcessHardening),
            // and idflow's stdout stays the command's JSON: what the launcher prints goes to stderr.
            let process = try ChildProcess.spawn(
                executable, arguments, environment: ProcessHardening.childEnvironment(from: environment),
                standardInput: .nullDevice, standardOutput: .fileDescriptor(STDERR_FILENO))
            // Reaped when it ends, whenever that is, so no finished launcher lingers as a zombie while idflow waits.
            Thread.detachNewThread { process.waitUntilExit() }
            return nil
        } catch {
            return "could not start a browser (\(error)); open the URL yourself"
        }
    }
}
