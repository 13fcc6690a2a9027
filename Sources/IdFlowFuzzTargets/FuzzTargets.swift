/// Every fuzz target, by name. A new parser of outside input adds its target here (DESIGN.md, "Fuzzing").
public enum FuzzTargets {
    public static let all: [FuzzTarget] = [
        jwt, identityEngine, oktaResponse, oauthResponse, push, customRegistration, loopback, batch, configurationFiles,
        storedState, redactor,
        sandboxFilter, sandboxUsers, sandboxAuthn, sandboxOAuth, sandboxIdentityEngine, sandboxDevices,
    ]

    public static func named(_ name: String) -> FuzzTarget? {
        all.first { $0.name == name }
    }
}
