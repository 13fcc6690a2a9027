import Foundation
import OneTimePasscode

/// A user's enrollments of the Identity Engine's own authenticators beyond the password and the e-mail address
/// (which every user has) and Okta Verify (an app-authenticator enrollment, `RegisteredEnrollment`).
struct IDXUserEnrollments: Sendable {
    var phone: PhoneEnrollment?
    var securityQuestion: SecurityQuestionEnrollment?
    var googleOTP: TOTPEnrollment?
    /// Passkeys (WebAuthn credentials), oldest first: a user may register several (`SandboxState+WebAuthn.swift`).
    var webAuthn: [WebAuthnCredential] = []
    /// The Temporary Access Code an admin created last, used or expired ones included (`SandboxState+IDXTAC.swift`).
    var tac: TACEnrollment?

    func has(_ authenticator: IDXPolicy.Authenticator) -> Bool {
        switch authenticator {
        case .phone: return phone != nil
        case .securityQuestion: return securityQuestion != nil
        case .googleOTP: return googleOTP != nil
        case .webAuthn: return !webAuthn.isEmpty
        case .tac: return tac != nil
        case .password, .email, .oktaVerify, .customOTP: return false
        }
    }
}

/// A phone number (E.164) that codes go to by SMS or voice call (`sms…`).
struct PhoneEnrollment: Sendable {
    let id: String
    let phoneNumber: String
    let created: Date

    /// `+1 XXX-XXX-4601` for a North American number, as the recordings show; otherwise `+` and X for every digit
    /// but the last four.
    var masked: String { Self.mask(phoneNumber) }

    static func mask(_ number: String) -> String {
        let digits = number.filter(\.isNumber)
        let last = String(digits.suffix(4))
        if digits.count == 11, digits.hasPrefix("1") { return "+1 XXX-XXX-\(last)" }
        return "+" + String(repeating: "X", count: max(0, digits.count - 4)) + last
    }

    /// `+` and 8 to 15 digits, the first not 0 (ITU-T E.164; Okta refuses anything else).
    static func isE164(_ number: String) -> Bool {
        guard number.hasPrefix("+") else { return false }
        let digits = number.dropFirst()
        return (8...15).contains(digits.count) && digits.allSatisfy { $0.isASCII && $0.isNumber } && digits.first != "0"
    }
}

/// A security question (`qae…`): a predefined key with its text, or `custom` with the user's own question; the answer
/// is kept hashed like a password, compared without regard to case.
struct SecurityQuestionEnrollment: Sendable {
    let id: String
    let questionKey: String
    let question: String
    let answer: StoredPassword
    let created: Date
}

/// A TOTP authenticator app's enrollment (`uft…`): the seed shown as a QR code at enrollment.
struct TOTPEnrollment: Sendable {
    let id: String
    let secret: TOTPSecret
    /// The last time step whose code was accepted (the enrollment's own first code included): no code twice.
    var lastStep: Int64?
    let created: Date
}

/// The predefined security questions, keys and texts as `security-question-enroll.json` lists them.
enum SecurityQuestions {
    static let catalogue: [(key: String, question: String)] = [
        ("disliked_food", "What is the food you least liked as a child?"),
        ("name_of_first_plush_toy", "What is the name of your first stuffed animal?"),
        ("first_award", "What did you earn your first medal or award for?"),
        ("favorite_security_question", "What is your favorite security question?"),
        ("favorite_toy", "What is the toy/stuffed animal you liked the most as a kid?"),
        ("first_computer_game", "What was the first computer game you played?"),
        ("favorite_movie_quote", "What is your favorite movie quote?"),
        ("first_sports_team_mascot", "What was the mascot of the first sports team you played on?"),
        ("first_music_purchase", "What music album or song did you first purchase?"),
        ("favorite_art_piece", "What is your favorite piece of art?"),
        ("grandmother_favorite_desert", "What was your grandmother's favorite dessert?"),
        ("first_thing_cooked", "What was the first thing you learned to cook?"),
        ("childhood_dream_job", "What was your dream job as a child?"),
        ("place_where_significant_other_was_met", "Where did you meet your spouse/significant other?"),
        ("favorite_vacation_location", "Where did you go for your favorite vacation?"),
        ("new_years_two_thousand", "Where were you on New Year's Eve in the year 2000?"),
        ("favorite_speaker_actor", "Who is your favorite speaker/orator?"),
        ("favorite_book_movie_character", "Who is your favorite book/movie character?"),
        ("favorite_sports_player", "Who is your favorite sports player?"),
    ]

    /// The key for a question the user writes.
    static let customKey = "custom"
    /// Answers shorter than this are refused (`securityQuestion.answer.tooShort.arg`, params [4]).
    static let minimumAnswerLength = 4

    static func question(forKey key: String) -> String? {
        catalogue.first { $0.key == key }?.question
    }
}
