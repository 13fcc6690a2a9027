import Foundation
import IdFlowCore
import IdFlowFoundation
import Testing

/// The times idflow prints (`expiresAt`, `issuedAt`) and the ones it reads from servers (an Authn or Identity
/// Engine transaction's `expiresAt`, a certificate's "valid until").
struct ISO8601Tests {
    @Test func printsUTCWithSecondsAsDateAndScriptsReadIt() {
        #expect(ISO8601.string(Date(timeIntervalSince1970: 1_700_000_000)) == "2023-11-14T22:13:20Z")
        #expect(ISO8601.string(Date(timeIntervalSince1970: 1_700_000_000.75)) == "2023-11-14T22:13:20Z")
        #expect(ISO8601.string(Date(timeIntervalSince1970: 253_402_300_799)) == "9999-12-31T23:59:59Z")
    }

    @Test func readsOktasTimesWithOrWithoutFractionsAndWithAnOffset() throws {
        // Okta's transactions carry milliseconds ("2017-08-16T06:06:56.000Z" in the recorded Authn replies).
        #expect(ISO8601.date("2017-08-16T06:06:56.000Z") == Date(timeIntervalSince1970: 1_502_863_616))
        #expect(ISO8601.date("2017-08-16T06:06:56Z") == Date(timeIntervalSince1970: 1_502_863_616))
        #expect(ISO8601.date("2017-08-16T08:06:56+02:00") == Date(timeIntervalSince1970: 1_502_863_616))
        let fraction = try #require(ISO8601.date("2017-08-16T06:06:56.5Z"))
        #expect(abs(fraction.timeIntervalSince1970 - 1_502_863_616.5) < 0.001)
    }

    @Test func refusesWhatIsNotAnInstant() {
        #expect(ISO8601.date("2017-08-16") == nil)
        #expect(ISO8601.date("2017-08-16T06:06:56") == nil, "no zone: which instant is meant is unknown")
        #expect(ISO8601.date("yesterday") == nil)
        #expect(ISO8601.date("") == nil)
    }
}
