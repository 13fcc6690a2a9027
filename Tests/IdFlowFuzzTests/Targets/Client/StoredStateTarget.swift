import Foundation

@testable import IdFlowCore
@testable import IdFlowFoundation

extension FuzzTargets {
    /// The files idflow keeps, as another program (or a damaged disk) may have left them: the input is written to
    /// each place idflow reads state from (0600 in 0700 folders, as it writes them) and read back by the same
    /// loaders: the profile's tokens, a kept Identity Engine or custom-registration transaction, the service app's
    /// token cache, and a push enrollment's identity, record and keys (a sealed key opened with a PIN).
    static let storedState = FuzzTarget(
        name: "stored-state",
        summary: "tokens.json, kept IDX and registration transactions, the service-app cache, device enrollment and key files",
        prepare: {
            // Each store's own folders, as idflow makes them before it writes there.
            let folders =
                [kept.directory, registrations.directory, cache.directory] + (devices.map { [$0.enrollmentsFolder, $0.keysFolder] } ?? [])
            for folder in folders { _ = try? StateDirectory.ensure(folder) }
        }
    ) { input in
        let tokens = TokenStore(directory: stateFolder)
        if (try? SecureFile.write(input, to: tokens.file)) != nil, let stored = try? tokens.load() {
            _ = stored.dpopKey.flatMap(DPoPKey.init(stored:))
            _ = stored.expiry(of: .access)
            _ = stored.expiry(of: .refresh)
        }

        if let file = try? kept.file("t1"), (try? SecureFile.write(input, to: file)) != nil {
            let issuer = org.appendingPathComponent("oauth2/default")
            _ = try? kept.kept("t1", issuer: issuer, clientID: "0oafuzz", now: Date(timeIntervalSince1970: 1_700_000_000))
            _ = kept.pendingIDs(now: Date(timeIntervalSince1970: 1_700_000_000))
        }

        if (try? SecureFile.write(input, to: registrations.file(for: "tx1"))) != nil {
            _ = try? registrations.load("tx1")
        }

        if (try? SecureFile.write(input, to: cache.file)) != nil { _ = try? cache.load() }

        guard let folder = devices else { return }
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
    private static let org = URL(string: "https://example.okta.com")!
    private static let kept = IDX.Transactions(stateDirectory: stateFolder)
    private static let registrations = RegistrationTransactions(stateDirectory: stateFolder)
    private static let cache = ServiceAppTokenCache(profileDirectory: stateFolder, clientID: "0oasvc")
    private static let devices = try? DeviceStore(stateDirectory: stateFolder).org(org)
}
