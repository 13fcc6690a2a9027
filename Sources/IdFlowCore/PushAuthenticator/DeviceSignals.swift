import Foundation
import IdFlowFoundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// What this machine says about itself at enrollment (devices.md §2b), honestly: the platform it runs on,
/// its OS version, hardware vendor and model when the system tells them, and software keys (no secure hardware).
public struct DeviceSignals: Sendable, Equatable {
    public var displayName: String
    /// `LINUX` or `MACOS`.
    public var platform: String
    public var manufacturer: String?
    public var model: String?
    public var osVersion: String

    public init(displayName: String, platform: String, manufacturer: String?, model: String?, osVersion: String) {
        self.displayName = displayName
        self.platform = platform
        self.manufacturer = manufacturer
        self.model = model
        self.osVersion = osVersion
    }

    /// This machine, named `name` (HTML tags stripped, as the SDK does) or else by its host name.
    public static func current(name: String?) -> DeviceSignals {
        let version = ProcessInfo.processInfo.operatingSystemVersion
        #if os(macOS)
            let platform = "MACOS"
            let manufacturer: String? = "APPLE"
            let model = sysctlString("hw.model") ?? machine()
        #else
            let platform = "LINUX"
            let manufacturer = firstLine(of: "/sys/class/dmi/id/sys_vendor")
            let model = firstLine(of: "/sys/class/dmi/id/product_name") ?? machine()
        #endif
        let host = ProcessInfo.processInfo.hostName
        return DeviceSignals(
            displayName: stripTags(name ?? (host.isEmpty ? "idflow" : host)), platform: platform, manufacturer: manufacturer,
            model: model, osVersion: "\(version.majorVersion).\(version.minorVersion).\(version.patchVersion)")
    }

    /// The `device` signals a challenge may ask for by name (§5b `signals`); names outside this set are ignored.
    func requested(_ names: [String]) -> [String: JSONValue] {
        var all: [String: JSONValue] = [
            "displayName": .string(displayName), "platform": .string(platform), "osVersion": .string(osVersion),
            "secureHardwarePresent": false,
        ]
        all["manufacturer"] = manufacturer.map(JSONValue.string)
        all["model"] = model.map(JSONValue.string)
        return all.filter { names.contains($0.key) }
    }

    static func stripTags(_ text: String) -> String {
        text.replacingOccurrences(of: "<[^>]*>", with: "", options: .regularExpression).trimmingCharacters(in: .whitespaces)
    }

    private static func firstLine(of path: String) -> String? {
        guard let text = try? String(contentsOfFile: path, encoding: .utf8) else { return nil }
        let line = text.split(separator: "\n").first.map { $0.trimmingCharacters(in: .whitespaces) } ?? ""
        return line.isEmpty ? nil : line
    }

    private static func machine() -> String? {
        var name = utsname()
        guard uname(&name) == 0 else { return nil }
        return withUnsafeBytes(of: &name.machine) { buffer in
            String(decoding: buffer.prefix { $0 != 0 }, as: UTF8.self)
        }
    }

    #if os(macOS)
        private static func sysctlString(_ name: String) -> String? {
            var size = 0
            guard sysctlbyname(name, nil, &size, nil, 0) == 0, size > 0 else { return nil }
            var bytes = [CChar](repeating: 0, count: size)
            guard sysctlbyname(name, &bytes, &size, nil, 0) == 0 else { return nil }
            return String(cString: bytes)
        }
    #endif
}
