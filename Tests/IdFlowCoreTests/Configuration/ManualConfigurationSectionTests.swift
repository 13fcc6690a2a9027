import Foundation
import IdFlowFoundation
import IdFlowTestSupport
import Testing

/// The man page's CONFIGURATION section is written from the settings' one declaration (`Setting.all`), so the
/// page cannot name a flag, variable or key the resolver does not read, nor miss one it does.
/// `man/configuration.mdoc` is that rendering; `RECORD_SNAPSHOTS=1` rewrites it and `scripts/gen-man.sh` puts it
/// into `man/idflow.1`.
struct ManualConfigurationSectionTests {
    @Test func theCommittedSectionIsTheDeclarationRendered() throws {
        let directory = SnapshotDirectory(Fixtures.packageRoot.appendingPathComponent("man", isDirectory: true))
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
        #expect(section.contains(".Fl -org-url ,\n.Ev OKTA_CLIENT_ORGURL ,\nprofile key\n.Li orgUrl ,\n"))
    }

    /// The page itself carries the section, where a reader of ENVIRONMENT finds it.
    @Test func theManPageCarriesTheSection() throws {
        let page = try String(contentsOf: Fixtures.packageRoot.appendingPathComponent("man/idflow.1"), encoding: .utf8)
        #expect(page.contains(ConfigurationSection.mdoc), "man/idflow.1 lacks man/configuration.mdoc: run scripts/gen-man.sh")
    }
}

/// The CONFIGURATION section in mdoc: for each setting, its places in the order they are weighed.
enum ConfigurationSection {
    static var mdoc: String {
        var lines = [
            ".Sh CONFIGURATION",
            "Each setting is looked for in these places, first to last, and the first that sets it wins;",
            ".Ic idflow doctor",
            "shows which one did.",
            "A flag's or a file's value counts even when empty; an empty variable counts as unset.",
            ".Bl -tag -width Ds",
        ]
        for setting in Setting.all {
            lines.append(".It Sy \(setting.name.rawValue)")
            let places = setting.places.map(line)
            for (index, place) in places.enumerated() {
                lines.append(place + (index == places.count - 1 ? " ." : " ,"))
            }
            lines.append(contentsOf: remarks(setting))
        }
        lines.append(".El")
        return lines.joined(separator: "\n") + "\n"
    }

    /// One place, as mdoc lines without the punctuation that follows it.
    static func line(_ place: Setting.Place) -> String {
        switch place {
        case .flag(let name), .numberFlag(let name): return ".Fl \(name.dropFirst())"
        case .environment(let name): return ".Ev \(name)"
        case .profile(let key, _), .numberProfile(let key, _): return "profile key\n.Li \(key)"
        case .oktaYAML(let key, _): return ".Pa okta.yaml\nkey\n.Li \(key)"
        }
    }

    private static func remarks(_ setting: Setting) -> [String] {
        var remarks: [String] = []
        switch setting.kind {
        case .text: break
        case .secret: remarks.append("A secret:\n.Ic doctor\nshows only whether it is set.")
        case .path: remarks.append("A file's path.")
        case .key: remarks.append("A private key's file, or the PEM itself.")
        }
        if let unset = setting.unsetValue { remarks.append("Default:\n.Ql \(unset) .") }
        return remarks
    }
}
