import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Keeps the secrets a run holds in memory (passwords, tokens, device keys) out of places other than the
/// process itself: a core file written on a crash, or a debugger of the same user attaching.
public enum ProcessHardening {
    /// Sets the core file limit to zero and, on Linux, marks the process not dumpable (which also keeps
    /// other processes of the same user from attaching with ptrace or reading /proc/PID/mem). Called first
    /// thing in `main`; failures are ignored, since a run is still correct without it.
    public static func disableCoreDumps() {
        var limit = rlimit(rlim_cur: 0, rlim_max: 0)
        #if os(Linux)
            _ = setrlimit(Int32(RLIMIT_CORE.rawValue), &limit)
            // prctl(2) is not in Glibc's Swift module map; it is looked up in the C library instead.
            typealias Prctl = @convention(c) (Int32, UInt, UInt, UInt, UInt) -> Int32
            let setDumpable: Int32 = 4  // PR_SET_DUMPABLE in <linux/prctl.h>
            if let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "prctl") {
                _ = unsafeBitCast(symbol, to: Prctl.self)(setDumpable, 0, 0, 0, 0)
            }
        #else
            _ = setrlimit(RLIMIT_CORE, &limit)
        #endif
    }

    /// The environment to hand a program idflow starts (the browser): the caller's, without idflow's and
    /// Okta's variables (`OKTA_CLIENT_TOKEN`, `IDFLOW_PASSWORD`, `IDFLOW_ACTIVATION_TOKEN`, `IDFLOW_PIN`, …)
    /// and without anything whose name says it holds a secret. A browser needs none of them, and it and its
    /// helpers log and crash-report their environment.
    public static func childEnvironment(from environment: [String: String]) -> [String: String] {
        environment.filter { name, _ in !holdsSecret(name) }
    }

    static func holdsSecret(_ name: String) -> Bool {
        let upper = name.uppercased()
        if upper.hasPrefix("IDFLOW_") || upper.hasPrefix("OKTA_") { return true }
        let markers = ["TOKEN", "PASSWORD", "PASSWD", "SECRET", "PASSPHRASE", "CREDENTIAL", "API_KEY", "PRIVATE_KEY", "_PIN"]
        return markers.contains { upper.contains($0) } || upper.hasSuffix("_KEY")
    }
}
