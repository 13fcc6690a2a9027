import Foundation
import IdFlowFuzzTargets

/// The target this process fuzzes, chosen once by `IDFLOW_FUZZ_TARGET` before the first input.
nonisolated(unsafe) private var selected: FuzzTarget?

/// libFuzzer calls this once at start: one binary holds every target, so the environment names which one runs.
@_cdecl("LLVMFuzzerInitialize")
public func initialize(
    _ argc: UnsafeMutablePointer<CInt>, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>>>
) -> CInt {
    let name = ProcessInfo.processInfo.environment["IDFLOW_FUZZ_TARGET"] ?? ""
    if name == "--list" {
        for target in FuzzTargets.all { print("\(target.name)\t\(target.summary)") }
        exit(0)
    }
    guard let target = FuzzTargets.named(name) else {
        let names = FuzzTargets.all.map(\.name).joined(separator: ", ")
        FileHandle.standardError.write(Data("idflow-fuzz: set IDFLOW_FUZZ_TARGET to one of: \(names)\n".utf8))
        exit(2)
    }
    target.setUp()
    selected = target
    return 0
}

@_cdecl("LLVMFuzzerTestOneInput")
public func testOneInput(_ bytes: UnsafePointer<UInt8>, _ count: Int) -> CInt {
    selected?.run(Data(bytes: bytes, count: count))
    return 0
}

/// libFuzzer's driver, declared here because no module exports it.
@_silgen_name("LLVMFuzzerRunDriver")
private func runFuzzerDriver(
    _ argc: UnsafeMutablePointer<CInt>, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>,
    _ callback: @convention(c) (UnsafePointer<UInt8>, Int) -> CInt
) -> CInt

/// SwiftPM links a debug executable's `main` to `<module>_main` (so tests can import executables), which leaves
/// libFuzzer's own `main` out: this one hands the command line to libFuzzer's driver instead.
@_cdecl("idflow_fuzz_main")
public func fuzzMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
    var count = argc
    var arguments = argv
    return runFuzzerDriver(&count, &arguments) { bytes, size in testOneInput(bytes, size) }
}
