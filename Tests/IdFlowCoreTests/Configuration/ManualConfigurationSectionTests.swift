import Foundation
import IdFlowFoundation
import IdFlowTestSupport
import Testing

/// Where each setting is read from, in the man page's CONFIGURATION OPTIONS, is written from the settings' one
/// declaration (`Setting.all`), so the page cannot name a flag, variable or key the resolver does not read, nor miss
/// one it does. `scripts/manual/configuration.mdoc` is that rendering; `RECORD_SNAPSHOTS=1` rewrites it and
/// `scripts/gen-man.sh` puts each setting's places after its flag in `man/idflow.1`.
struct ManualConfigurationSectionTests {
    @Test func theCommittedSectionIsTheDeclarationRendered() throws {
        let directory = SnapshotDirectory(Fixtures.packageRoot.appendingPathComponent("scripts/manual", isDirectory: true))
        if let mismatch = try directory.mismatch(ConfigurationSection.mdoc, named: "configuration.mdoc") {
            Issue.record(Comment(rawValue: mismatch + " (then run scripts/gen-man.sh)"))
        }
    }

    /// What a reader looks a setting up by is all there: every flag, variable, profile key and okta.yaml key.
    @Test func everyPlaceOfEverySettingIsNamed() {
        let section = ConfigurationSection.mdoc
        for setting in Setting.all {
            #expect(section.contains(".It Sy \(setting.name.rawValue)\n"))
            for place in setting.places {
                #expect(section.contains(ConfigurationSection.line(place)), "\(setting.name) lacks \(place)")
            }
        }
        #expect(section.contains(".Fl -org-url , Ev OKTA_CLIENT_ORGURL , Li orgUrl , Li okta.client.orgUrl .\n"))
    }

    /// The page itself names every setting with its places, after its flag when it has one, where a reader of
    /// ENVIRONMENT is sent.
    @Test func theManPageCarriesEverySetting() throws {
        let page = try String(contentsOf: Fixtures.packageRoot.appendingPathComponent("man/idflow.1"), encoding: .utf8)
        guard let start = page.range(of: ".Sh \"CONFIGURATION OPTIONS\"\n"), let end = page.range(of: "\n.Sh ENVIRONMENT\n") else {
            Issue.record("man/idflow.1 lacks CONFIGURATION OPTIONS or ENVIRONMENT: run scripts/gen-man.sh")
            return
        }
        let section = page[start.upperBound..<end.lowerBound]
        #expect(section.contains(ConfigurationSection.introduction), "run scripts/gen-man.sh")
        for setting in Setting.all {
            let body = ConfigurationSection.body(setting)
            if let flag = setting.flag {
                // After the flag's item, its places go on from the one after the flag.
                let after = body.replacingOccurrences(of: ".Fl \(flag.dropFirst()) , ", with: ".")
                #expect(section.contains(".Sy \(setting.name.rawValue) :\n\(after)"), "\(setting.name): run scripts/gen-man.sh")
                #expect(section.contains(".It Fl \(flag.dropFirst())"), "\(setting.name)")
            } else {
                #expect(section.contains(".It Sy \(setting.name.rawValue)\n\(body)"), "\(setting.name): run scripts/gen-man.sh")
            }
        }
    }
}

/// The settings in mdoc: an introduction, then for each setting an item of its name and its places in the order
/// they are weighed, which `scripts/man-sections.awk` puts after the setting's flag in CONFIGURATION OPTIONS.
enum ConfigurationSection {
    static let introduction = """
        After an option that sets a setting come the setting's name, as
        .Ic idflow doctor
        shows it, and the places it is read from, first to last (the flag, variables, profile key, okta.yaml key):
        the first that sets it wins.
        A flag's or a file's value counts even when empty; an empty variable counts as unset.

        """

    static var mdoc: String {
        var text = """
            .\\" Rendered from Setting.all by ManualConfigurationSectionTests (RECORD_SNAPSHOTS=1 rewrites it);
            .\\" scripts/man-sections.awk puts each setting after its flag in idflow.1's CONFIGURATION OPTIONS.

            """
        text += introduction
        for setting in Setting.all { text += ".It Sy \(setting.name.rawValue)\n" + body(setting) }
        return text
    }

    /// A setting's places on one line (the introduction says which kind each is), then what kind of value it is
    /// and its default.
    static func body(_ setting: Setting) -> String {
        let places = "." + setting.places.map(line).joined(separator: " , ") + " ."
        return ([places] + remarks(setting)).joined(separator: "\n") + "\n"
    }

    /// One place as an mdoc macro and its argument, without the punctuation that follows it.
    static func line(_ place: Setting.Place) -> String {
        switch place {
        case .flag(let name), .numberFlag(let name): return "Fl \(name.dropFirst())"
        case .environment(let name): return "Ev \(name)"
        case .profile(let key, _), .numberProfile(let key, _), .oktaYAML(let key, _): return "Li \(key)"
        }
    }

    private static func remarks(_ setting: Setting) -> [String] {
        var remarks: [String] = []
        switch setting.kind {
        case .text: break
        case .secret: remarks.append("A secret:\n.Ic doctor\nshows only whether it is set.")
        case .path: break  // the option's value is named `path` already
        case .key: remarks.append("A private key's file, or the PEM itself.")
        }
        // Most settings' help says the default already.
        if let unset = setting.unsetValue, setting.help?.contains("default") != true { remarks.append("Default:\n.Ql \(unset) .") }
        return remarks
    }
}
