import Foundation
import IdFlowCore
import IdFlowFoundation
import IdFlowTestSupport
import Testing

/// `challenges --wait` on a machine with no push enrollment: nothing can ever arrive, so it says so at once
/// (exit 5, naming `idflow enroll`) instead of waiting out --wait and suggesting a longer one.
struct ListChallengesTests {
    @Test func waitingWithoutAnEnrollmentEndsAtOnceNamingEnroll() async throws {
        let transport = ScriptedTransport([])
        let sleeps = Locked<[Duration]>([])
        let messages = Locked<[String]>([])
        let context = TestContext.make(transport: transport, messages: messages, sleeps: sleeps)
        var caught: IdFlowError?
        do throws(IdFlowError) {
            _ = try await ListChallenges(wait: .seconds(60)).run(context)
        } catch {
            caught = error
        }
        let error = try #require(caught)
        #expect(error.exitStatus == .notFound, "\(error)")
        #expect(error.message.contains("no push enrollment is kept on this machine"))
        #expect(error.hint?.contains("`idflow enroll`") == true, "\(error.hint ?? "")")
        #expect(sleeps.current.isEmpty, "no wait at all")
        #expect(transport.requests.isEmpty)
        #expect(!messages.current.contains { $0.contains("waiting up to") })
    }

    /// Without --wait the answer is still an empty list, as before.
    @Test func listingWithoutAnEnrollmentIsAnEmptyList() async throws {
        let context = TestContext.make(transport: ScriptedTransport([]))
        #expect(try await ListChallenges().run(context).challenges.isEmpty)
    }
}
