import Foundation
import IdFlowFoundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The state directory: folders 0700 and files 0600 (nothing another user can read or list), no symbolic
/// links, and what is kept there: each profile's stored login, push enrollments, kept sign-in transactions.
enum StateDirectoryCheck {
    static func run(stateDirectory: URL, profile: String, now: Date) -> DoctorCheck {
        var info = stat()
        guard lstat(stateDirectory.path, &info) == 0 else {
            return DoctorCheck("state", .ok, "\(stateDirectory.path) does not exist yet: nothing is stored")
        }
        var problems: [String] = []
        var fixes: [String] = []
        inspect(stateDirectory, info, problems: &problems, fixes: &fixes)
        if (info.st_mode & S_IFMT) == S_IFDIR { walk(stateDirectory, problems: &problems, fixes: &fixes) }
        guard problems.isEmpty else {
            return DoctorCheck(
                "state", .fail, problems.joined(separator: "; "), fix: Array(Set(fixes)).sorted().joined(separator: "; "), kind: .localState
            )
        }
        return DoctorCheck(
            "state", .ok,
            (["\(stateDirectory.path) is private (0700, files 0600)"] + contents(stateDirectory, profile: profile, now: now)).joined(
                separator: "; "))
    }

    /// Checks one entry: a link, a folder another user can open, a file another user can read.
    private static func inspect(_ url: URL, _ info: stat, problems: inout [String], fixes: inout [String]) {
        let type = info.st_mode & S_IFMT
        let mode = String(info.st_mode & 0o777, radix: 8)
        if type == S_IFLNK {
            problems.append("\(url.path) is a symbolic link")
            fixes.append("replace the link \(url.path) with the folder or file itself (idflow refuses links)")
        } else if info.st_uid != geteuid() {
            problems.append("\(url.path) belongs to another user")
            fixes.append("choose a --state-dir of your own")
        } else if type == S_IFDIR, info.st_mode & 0o077 != 0 {
            problems.append("\(url.path) is a folder with mode \(mode), not 0700")
            fixes.append("chmod 700 \(url.path)")
        } else if type == S_IFREG, info.st_mode & 0o077 != 0 {
            problems.append("\(url.path) has mode \(mode), not 0600")
            fixes.append("chmod 600 \(url.path)")
        }
    }

    private static func walk(_ directory: URL, problems: inout [String], fixes: inout [String]) {
        for name in ((try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []).sorted() {
            let url = directory.appendingPathComponent(name)
            var info = stat()
            guard lstat(url.path, &info) == 0 else { continue }
            inspect(url, info, problems: &problems, fixes: &fixes)
            if (info.st_mode & S_IFMT) == S_IFDIR { walk(url, problems: &problems, fixes: &fixes) }
        }
    }

    /// What is kept: each profile's login, the push enrollments, the sign-in transactions that can be resumed.
    private static func contents(_ stateDirectory: URL, profile: String, now: Date) -> [String] {
        var lines: [String] = []
        let profiles = stateDirectory.appendingPathComponent("profiles", isDirectory: true)
        for name in ((try? FileManager.default.contentsOfDirectory(atPath: profiles.path)) ?? []).sorted() where !name.hasPrefix(".") {
            let store = TokenStore(directory: profiles.appendingPathComponent(name, isDirectory: true))
            do throws(IdFlowError) {
                guard let stored = try store.load() else { continue }
                var line = "profile \(name): \(describe(stored, now: now))"
                if let waiting = store.recoveryFiles.last {
                    let refresh = "idflow refresh" + (name == "default" ? "" : " --profile \(ShellWord.quote(name))")
                    line += " (kept in \(waiting.lastPathComponent) after a failed save; `\(refresh)` puts it back in tokens.json)"
                }
                lines.append(line)
            } catch {
                lines.append("profile \(name): \(error.message)")
            }
        }
        if lines.isEmpty { lines.append("no login stored") }
        let enrollments = (try? DeviceStore(stateDirectory: stateDirectory).enrollments(orgURL: nil).count) ?? 0
        lines.append("\(enrollments) push enrollment\(enrollments == 1 ? "" : "s")")
        let transactions =
            IDX.Transactions(stateDirectory: stateDirectory).pendingIDs(now: now).count
            + LoginDirect.PendingCode.kept(stateDirectory: stateDirectory).pendingIDs(now: now).count
        lines.append("\(transactions) kept sign-in transaction\(transactions == 1 ? "" : "s")")
        return lines
    }

    /// `issuer …, client …, expires … (or expired …), scopes …, refresh possible`.
    static func describe(_ stored: StoredTokens, now: Date) -> String {
        var parts = ["issuer \(stored.issuer)", "client \(stored.clientId)"]
        if let expiry = stored.expiresAt {
            parts.append("\(expiry > now ? "expires" : "expired") \(expiry.formatted(.iso8601))")
        }
        if let scope = stored.tokens.scope { parts.append("scopes \(scope)") }
        parts.append(stored.tokens.refreshToken != nil ? "refresh possible" : "no refresh token")
        return parts.joined(separator: ", ")
    }
}
