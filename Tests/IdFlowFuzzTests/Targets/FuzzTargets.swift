import Foundation

/// Every fuzz target, by name. A new parser of outside input adds its target here (DESIGN.md, "Fuzzing").
public enum FuzzTargets {
    public static let all: [FuzzTarget] = [
        jwt, identityEngine, oktaResponse, oauthResponse, push, customRegistration, loopback, batch, configurationFiles,
        storedState, redactor, qrCode, cbor,
        sandboxFilter, sandboxUsers, sandboxAuthn, sandboxOAuth, sandboxIdentityEngine, sandboxDevices,
    ]

    public static func named(_ name: String) -> FuzzTarget? {
        all.first { $0.name == name }
    }

    /// A folder of this process's own, for the targets that write what they read to files.
    static let scratchFolder = FileManager.default.temporaryDirectory.appendingPathComponent(
        "idflow-fuzz-\(ProcessInfo.processInfo.processIdentifier)")
}
