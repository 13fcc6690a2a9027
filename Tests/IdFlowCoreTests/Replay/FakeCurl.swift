import Foundation
import IdFlowTestSupport

/// A stand-in `curl` in the shell of a generated script: it records what it was given (its arguments, the headers
/// and config read from `@file`s, the body from stdin) and answers from files the test wrote, so a script's
/// quoting can be run by bash without a server.
struct FakeCurl {
    let directory: URL

    /// The stand-in is a bash function that `BASH_ENV` defines in the script's shell, not an executable on the
    /// PATH: a file this process just wrote may still be open for writing in a child another test forked at that
    /// moment, and executing it then fails with "Text file busy"; a sourced file is only read.
    init() throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("fake-curl-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let function = """
            curl() {
              local d="$FAKE_CURL_DIR" n out=/dev/null headers=/dev/null
              n=$(( $(cat "$d/count" 2>/dev/null || echo 0) + 1 )); echo "$n" > "$d/count"
              printf '%s\\n' "$@" >> "$d/argv"
              while [ $# -gt 0 ]; do
                case "$1" in
                  -o) out="$2"; shift 2 ;;
                  -D) headers="$2"; shift 2 ;;
                  -w|-X) if [ "$1" = -X ]; then printf '%s' "$2" > "$d/$n.method"; fi; shift 2 ;;
                  -H) if [ "${2#@}" != "$2" ]; then cat "${2#@}" >> "$d/$n.headers"; else printf '%s\\n' "$2" >> "$d/$n.headers"; fi; shift 2 ;;
                  -K) cat "$2" > "$d/$n.config"; shift 2 ;;
                  --data-binary) if [ "$2" = @- ]; then cat > "$d/$n.body"; else printf '%s' "$2" > "$d/$n.body"; fi; shift 2 ;;
                  -sS) shift ;;
                  *) printf '%s' "$1" > "$d/$n.url"; shift ;;
                esac
              done
              cat "$d/answer-$n.json" > "$out" 2>/dev/null || true
              cat "$d/answer-$n.headers" > "$headers" 2>/dev/null || true
              echo "$n 200"
            }
            """
        try Data(function.utf8).write(to: directory.appendingPathComponent("curl.bash"))
    }

    /// What the fake curl answers to its `number`th call.
    func answer(_ number: Int, json: String, headers: String = "") throws {
        try Data(json.utf8).write(to: directory.appendingPathComponent("answer-\(number).json"))
        try Data(headers.utf8).write(to: directory.appendingPathComponent("answer-\(number).headers"))
    }

    /// Runs `script` with bash, this curl first on the PATH and `environment` exported.
    func run(_ script: String, environment: [String: String] = [:]) async throws -> ExternalCommand.Result {
        let file = directory.appendingPathComponent("replay.sh")
        try Data(script.utf8).write(to: file)
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        let out = directory.appendingPathComponent("out")
        try FileManager.default.createDirectory(at: out, withIntermediateDirectories: true)
        var env = environment
        env["PATH"] = path
        env["BASH_ENV"] = directory.appendingPathComponent("curl.bash").path
        env["FAKE_CURL_DIR"] = directory.path
        env["IDFLOW_OUT"] = out.path
        return try await ExternalCommand.run("/bin/bash", [file.path], environment: env, directory: directory)
    }

    func recorded(_ name: String) -> String? {
        (try? Data(contentsOf: directory.appendingPathComponent(name))).map { String(decoding: $0, as: UTF8.self) }
    }

    func exists(_ name: String) -> Bool {
        FileManager.default.fileExists(atPath: directory.appendingPathComponent(name).path)
    }
}
