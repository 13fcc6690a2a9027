import Foundation

@testable import IdFlowCore

extension FuzzTargets {
    /// The files idflow keeps, as another program (or a damaged disk) may have left them: the input is written to
    /// each place idflow reads state from (0600 in 0700 folders, as it writes them) and read back by the same
    /// loaders: the profile's tokens, a kept Identity Engine or custom-registration transaction, the service app's
    /// token cache, and a push enrollment's identity, record and keys (a sealed key opened with a PIN).
    static let storedState = FuzzTarget(
        name: "stored-state",
        summary: "tokens.json, kept IDX and registration transactions, the service-app cache, device enrollment and key files",
        prepare: {
            let folders = [
                "idx", "custom-registrations", "service-apps", "devices/example.okta.com/enrollments", "devices/example.okta.com/keys",
            ]
            for folder in folders.map({ stateFolder.appendingPathComponent($0, isDirectory: true) }) {
                try? FileManager.default.createDirectory(
                    at: folder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
            }
        }
    ) { input in
        let state = stateFolder
        let org = URL(string: "https://example.okta.com")!

        let tokens = TokenStore(directory: state)
        if (try? SecureFile.write(input, to: tokens.file)) != nil, let stored = try? tokens.load() {
            _ = stored.dpopKey.flatMap(DPoPKey.init(stored:))
            _ = stored.expiry(of: .access)
            _ = stored.expiry(of: .refresh)
        }

        let kept = IDX.Transactions(stateDirectory: state)
        if let file = try? kept.file("t1"), (try? SecureFile.write(input, to: file)) != nil {
            let issuer = org.appendingPathComponent("oauth2/default")
            _ = try? kept.kept("t1", issuer: issuer, clientID: "0oafuzz", now: Date(timeIntervalSince1970: 1_700_000_000))
            _ = kept.pendingIDs(now: Date(timeIntervalSince1970: 1_700_000_000))
        }

        let registrations = RegistrationTransactions(stateDirectory: state)
        if (try? SecureFile.write(input, to: registrations.file(for: "tx1"))) != nil {
            _ = try? registrations.load("tx1")
        }

        let cache = ServiceAppTokenCache(profileDirectory: state, clientID: "0oasvc")
        if (try? SecureFile.write(input, to: cache.file)) != nil { _ = try? cache.load() }

        guard let folder = try? DeviceStore(stateDirectory: state).org(org) else { return }
        for file in [folder.identityFile, folder.enrollmentsFolder.appendingPathComponent("aen1.json")] {
            _ = try? SecureFile.write(input, to: file)
        }
        _ = try? folder.identity()
        _ = try? folder.enrollments()
        if let keyFile = try? folder.keyFile("kid1"), (try? SecureFile.write(input, to: keyFile)) != nil {
            _ = try? folder.silentKey("kid1", role: .proofOfPossession)
            _ = folder.userVerificationKey("kid1", pin: Secret("1234"))
        }
    }

    private static let stateFolder = scratchFolder.appendingPathComponent("state", isDirectory: true)
}
