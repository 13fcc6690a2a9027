import Foundation
import IdFlowFoundation

extension AuthnTransaction.Complexity {
    /// The rules of this published policy that `password` breaks, in the policy's order and in the words Okta
    /// uses for them; empty when it passes. Checked before the password is sent, so a weak one costs no
    /// round trip and leaves the transaction open for another try. Rules the policy does not publish
    /// (history, common passwords) are still the server's to report (E0000080).
    public func failedRules(_ password: String, login: String?) -> [String] {
        var failures: [String] = []
        if let minLength, password.count < minLength {
            failures.append("Passwords must have at least \(minLength) characters.")
        }
        for (minimum, noun, test) in [
            (minLowerCase, "lowercase letter", { (c: Character) in c.isLowercase }),
            (minUpperCase, "uppercase letter", { (c: Character) in c.isUppercase }),
            (minNumber, "number", { (c: Character) in c.isNumber }),
            (minSymbol, "symbol", { (c: Character) in !c.isLetter && !c.isNumber && !c.isWhitespace }),
        ] {
            guard let minimum, minimum > 0, password.filter(test).count < minimum else { continue }
            failures.append(
                minimum == 1 ? "Passwords must have at least one \(noun)." : "Passwords must have at least \(minimum) \(noun)s.")
        }
        if excludeUsername == true, let login {
            let localPart = login.split(separator: "@", maxSplits: 1).first.map(String.init) ?? login
            if localPart.count >= 3, password.lowercased().contains(localPart.lowercased()) {
                failures.append("Passwords must not contain parts of your username.")
            }
        }
        return failures
    }
}
