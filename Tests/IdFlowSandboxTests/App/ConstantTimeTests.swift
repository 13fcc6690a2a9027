import Testing

@testable import IdFlowSandbox

/// The one comparison every secret goes through (API token, client secrets, one-time codes): it must still
/// say equal and different exactly as `==` does.
@Suite struct ConstantTimeTests {
    @Test func equalSecretsMatch() {
        #expect(ConstantTime.equals("00Tn1c3T0k3n", "00Tn1c3T0k3n"))
        #expect(ConstantTime.equals("", ""))
        #expect(ConstantTime.equals("héllo"[...], "héllo"), "a substring and a string of the same text")
    }

    @Test(arguments: [
        ("00Tn1c3T0k3n", "00Tn1c3T0k3m"), ("00Tn1c3T0k3n", "10Tn1c3T0k3n"), ("00Tn1c3T0k3n", "00Tn1c3T0k3"),
        ("00Tn1c3T0k3n", "00Tn1c3T0k3nn"), ("", "00Tn1c3T0k3n"), ("00Tn1c3T0k3n", ""), ("abc", "ABC"),
    ])
    func differentSecretsDoNot(given: String, expected: String) {
        #expect(!ConstantTime.equals(given, expected))
    }
}
