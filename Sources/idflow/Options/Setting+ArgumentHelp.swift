import ArgumentParser
import IdFlowFoundation

extension Setting {
    /// A configuration flag's help as ArgumentParser takes it, from the setting's one declaration (`Setting.all`).
    static func argumentHelp(_ name: Name) -> ArgumentHelp {
        let setting = named(name)
        return ArgumentHelp(setting.help ?? "", valueName: setting.valueName)
    }

    /// A configuration flag's long name, from the same declaration.
    static func argumentName(_ name: Name) -> NameSpecification {
        .customLong(String(named(name).flag?.dropFirst(2) ?? ""))
    }
}
