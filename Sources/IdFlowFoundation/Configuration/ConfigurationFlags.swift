/// The configuration flags every subcommand accepts, as typed on the command line.
///
/// A setting's flag is kept by the setting's name, not in a property of its own: which flag belongs to which setting,
/// and where else the setting may come from, is written once, in its declaration (`Setting.all`).
public struct ConfigurationFlags: Sendable, Equatable {
    /// The text each setting's flag was given (`--org-url https://…` under `.orgURL`); a flag that takes no value
    /// (`--dpop`) is "true" when present. A setting whose flag was not given has no entry.
    package var settings: [Setting.Name: String]
    /// `--profile`: which profile the settings of the profile file are read from.
    public var profile: String?
    /// `--proxy`, where the empty string means no proxy, which an environment variable cannot say.
    public var proxy: String?
    public var verbose = false
    public var quiet = false
    /// `--curl` (stderr) and `--curl-file PATH`: each request also written as a curl command.
    public var curl = false
    public var curlFile: String?

    package init(_ settings: [Setting.Name: String] = [:], profile: String? = nil, proxy: String? = nil) {
        self.settings = settings
        self.profile = profile
        self.proxy = proxy
    }

    /// The flags as `name → value` text (`["--org-url": "https://…"]`), as shell completion reads them from a
    /// partial command line: each is kept under the setting that declares it, and those that are no setting's are
    /// left out (but `--profile` and `--proxy`).
    package init(typed values: [String: String]) {
        var settings: [Setting.Name: String] = [:]
        for setting in Setting.all {
            if let flag = setting.flag, let value = values[flag] { settings[setting.name] = value }
        }
        self.init(settings, profile: values["--profile"], proxy: values["--proxy"])
    }
}
