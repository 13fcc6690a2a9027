import ArgumentParser

struct PasskeyCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "passkey",
        abstract: "List, show or delete the passkeys kept here.",
        discussion: """
            idflow is a software FIDO2 authenticator: each passkey is an EC P-256 key in one 0600 file under \
            {state-dir}/passkeys/, sealed under a PIN (scrypt + AES-GCM) when one was given. The JSON printed \
            never holds the key.

              $ idflow passkey list | jq -r '.passkeys[] | [.id, .rpId] | @tsv'
            """,
        subcommands: [PasskeyListCommand.self, PasskeyShowCommand.self, PasskeyDeleteCommand.self])
}
