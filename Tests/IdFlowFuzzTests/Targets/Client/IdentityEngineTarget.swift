import Foundation
import IdFlowTestSupport

@testable import IdFlowCore
@testable import IdFlowFoundation

extension FuzzTargets {
    /// The Identity Engine's documents as an org would send them, and `--answer` values for their forms: each
    /// document is decoded and every form filled from the answers, then the embedded sign-in runs against them (the
    /// introspection answered with the first, each form sent answered with the next, then an error), as
    /// `login-pkce --embedded` walks a real org.
    static let identityEngine = FuzzTarget(
        name: "idx",
        summary: "Identity Engine documents, form filling from --answer values, and the embedded sign-in's walk over them"
    ) { input in
        let parts = FuzzInput.parts(input, 4)
        let documents = parts.prefix(3).filter { !$0.isEmpty }
        let answers = IDX.AnswerSet(
            Dictionary(
                FuzzInput.text(parts[3]).split(separator: "\n").compactMap { line -> (String, String)? in
                    guard let equals = line.firstIndex(of: "=") else { return nil }
                    return (String(line[..<equals]), String(line[line.index(after: equals)...]))
                }, uniquingKeysWith: { first, _ in first }))

        for data in documents {
            guard let document = try? IDX.Document(data: data) else { continue }
            _ = document.currentAuthenticator
            _ = document.correctAnswer
            _ = document.errors
            for form in document.remediations + document.capabilities {
                _ = document.authenticatorName(of: form)
                _ = form.fill(answers, in: document)
            }
        }
        guard let first = documents.first else { return }

        let served = Locked(0)
        let transport = RoutedTransport { request in
            if request.route.hasSuffix("/interact") || request.route.hasSuffix("openid-configuration") {
                return recordedIdentityEngine.answer(request)
            }
            guard request.route.hasPrefix("POST /idp/idx/") else { return nil }
            let index = served.withLock { count in
                defer { count += 1 }
                return count
            }
            guard index < documents.count else { return RecordedIdentityEngine.reply("error-introspect-session-expired.json", status: 401) }
            return RoutedTransport.Reply(status: 200, headers: ["Content-Type": IDX.ionJSON], body: index == 0 ? first : documents[index])
        }
        let context = TestContext.make(transport: transport, configuration: identityEngineConfiguration)
        blocking {
            _ = try? await EmbeddedLogin(answers: answers, store: false).run(context)
        }
    }

    /// Discovery and interact, as recorded.
    private static let recordedIdentityEngine = RecordedIdentityEngine.transport()

    /// One state folder for every run: a kept transaction is written there, and a folder per input would fill the disk.
    private static let identityEngineConfiguration = TestContext.configuration(org: RecordedIdentityEngine.org)
}
