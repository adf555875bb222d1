import GraticuleSupport
import Foundation

/// Allocation counts, allocated bytes and heap peaks, measured in a child process that runs
/// with jemalloc preloaded.
///
/// Timing runs under the allocator the benchmark process starts with: the system's, which
/// is what users ship and what external implementations run with. Nothing in BenchKit links
/// jemalloc. The allocation pass is separate, as instruction counting is: the runner writes
/// the cases and their iteration counts to a request file and starts ``Child`` (normally this
/// same executable) with `LD_PRELOAD` naming `libjemalloc.so.2`. The child calls
/// ``Runner/serveAllocationRequests(_:cases:configuration:output:)``, which reads jemalloc's
/// per-thread counters through `mallctl` and prints one line per case. When no jemalloc
/// library is found, the allocation metrics are `unsupported`.
///
/// The child protocol is lines of tab-separated fields on its standard output:
/// `allocator VERSION`, then per case `ok ID COUNTS BYTES PEAKS` (comma-separated values per
/// operation, one per pass; PEAKS may be empty) or `error ID MESSAGE`.
public enum AllocationCounter {
    /// How to start the child: `executable arguments… REQUEST_FILE`.
    public struct Child: Sendable, Equatable {
        public var executable: String
        /// Arguments before the request file's path, which the runner appends.
        public var arguments: [String]
        /// The jemalloc shared library to preload; nil finds it with
        /// ``AllocationCounter/jemallocLibrary(environment:exists:)``.
        public var library: String?

        public init(executable: String, arguments: [String], library: String? = nil) {
            self.executable = executable
            self.arguments = arguments
            self.library = library
        }
    }

    /// Per-operation samples of one case, one value per pass.
    public struct Samples: Equatable, Sendable {
        public var counts: [Double]
        public var bytes: [Double]
        /// Peak heap growth of one operation per pass; empty when jemalloc has no
        /// `thread.peak` (before 5.3).
        public var peaks: [Double]

        public init(counts: [Double], bytes: [Double], peaks: [Double]) {
            self.counts = counts
            self.bytes = bytes
            self.peaks = peaks
        }
    }

    /// What one child run measured.
    public struct ChildResult: Equatable, Sendable {
        /// The child's allocator, e.g. `jemalloc 5.3.0-0-g54eaed1d8b56…`.
        public var allocator: String?
        /// Samples per case id.
        public var measured: [String: Samples] = [:]
        /// Why a case has no samples, per case id.
        public var errors: [String: String] = [:]
    }

    public enum Failure: Error, CustomStringConvertible, Equatable {
        case noLibrary
        case childFailed(String)
        public var description: String {
            switch self {
            case .noLibrary:
                return "jemalloc was not found (Debian: apt-get install libjemalloc2; or set GRATICULE_JEMALLOC to its path)"
            case .childFailed(let s): return "allocation child failed: \(s)"
            }
        }
    }

    /// True when this process allocates with jemalloc and its counters respond (for example
    /// the child, or a run its user started with jemalloc preloaded).
    public static var isActiveInThisProcess: Bool { _Jemalloc.isActive }

    /// `jemalloc VERSION` when this process allocates with jemalloc, otherwise nil.
    public static var versionInThisProcess: String? {
        _Jemalloc.isActive ? _Jemalloc.version.map { "jemalloc " + $0 } : nil
    }

    /// The environment variable that names the jemalloc library to preload. Empty turns the
    /// allocation pass off.
    public static let libraryVariable = "GRATICULE_JEMALLOC"

    /// The jemalloc shared library to preload: `GRATICULE_JEMALLOC` when set, otherwise the
    /// first that exists of the usual install paths (Debian and Ubuntu multiarch, other
    /// Linux distributions, Homebrew).
    public static func jemallocLibrary(environment: [String: String] = ProcessInfo.processInfo.environment,
                                       exists: (String) -> Bool = { FileManager.default.fileExists(atPath: $0) }) -> String? {
        if let named = environment[libraryVariable] {
            return named.isEmpty || !exists(named) ? nil : named
        }
        #if os(macOS)
        let candidates = ["/opt/homebrew/lib/libjemalloc.2.dylib", "/usr/local/lib/libjemalloc.2.dylib"]
        #else
        var candidates: [String] = []
        for arch in ["x86_64", "aarch64", "arm", "powerpc64le", "s390x", "riscv64"] {
            candidates.append("/usr/lib/\(arch)-linux-gnu/libjemalloc.so.2")
        }
        candidates += ["/usr/lib64/libjemalloc.so.2", "/usr/lib/libjemalloc.so.2", "/usr/local/lib/libjemalloc.so.2"]
        #endif
        return candidates.first(where: exists)
    }

    /// The environment variable that preloads a library on this platform.
    static var preloadVariable: String {
        #if os(macOS)
        return "DYLD_INSERT_LIBRARIES"
        #else
        return "LD_PRELOAD"
        #endif
    }

    /// Writes the request file, runs the child with jemalloc preloaded and reads its lines.
    ///
    /// - Parameters:
    ///   - requests: case ids and the iterations each pass runs.
    ///   - child: the program to start and its arguments.
    ///   - scratch: a folder for the request file and the child's standard error.
    public static func measure(_ requests: [(id: String, iterations: Int)], child: Child,
                               scratch: String) throws -> ChildResult {
        guard let library = child.library ?? jemallocLibrary() else { throw Failure.noLibrary }
        try? FileManager.default.createDirectory(atPath: scratch, withIntermediateDirectories: true)
        let requestPath = scratch + "/allocation-requests.\(UInt64.random(in: 0...UInt64.max)).tsv"
        defer { try? FileManager.default.removeItem(atPath: requestPath) }
        try FileIO.writeText(requestPath, requests.map { "\($0.iterations)\t\($0.id)\n" }.joined())

        let p = Process()
        p.executableURL = URL(fileURLWithPath: child.executable)
        p.arguments = child.arguments + [requestPath]
        var env = ProcessInfo.processInfo.environment
        let preload = preloadVariable
        env[preload] = [library, env[preload]].compactMap { $0 }.filter { !$0.isEmpty }.joined(separator: ":")
        // Hashing seeded per process would move Set and Dictionary work between runs.
        env["SWIFT_DETERMINISTIC_HASHING"] = "1"
        p.environment = env
        // Standard error goes to a file, so a chatty child never blocks on a full pipe.
        let errPath = requestPath + ".stderr"
        defer { try? FileManager.default.removeItem(atPath: errPath) }
        guard FileManager.default.createFile(atPath: errPath, contents: nil),
              let errFile = FileHandle(forWritingAtPath: errPath) else {
            throw Failure.childFailed("cannot create \(errPath)")
        }
        let out = Pipe()
        p.standardOutput = out
        p.standardError = errFile
        do { try p.run() } catch { throw Failure.childFailed("cannot start \(child.executable): \(error)") }
        let data = out.fileHandleForReading.readDataToEndOfFile()
        p.waitUntilExit()
        try? errFile.close()
        let errText = (try? FileIO.readText(errPath)) ?? ""

        var result = parse(String(decoding: data, as: UTF8.self))
        if p.terminationStatus != 0 || p.terminationReason != .exit {
            let tail = String(errText.suffix(400)).trimmingCharacters(in: .whitespacesAndNewlines)
            let why = p.terminationReason == .uncaughtSignal ? "killed by signal \(p.terminationStatus)"
                : "exit \(p.terminationStatus)"
            for r in requests where result.measured[r.id] == nil && result.errors[r.id] == nil {
                result.errors[r.id] = "allocation child \(why)" + (tail.isEmpty ? "" : ": \(tail)")
            }
        }
        for r in requests where result.measured[r.id] == nil && result.errors[r.id] == nil {
            result.errors[r.id] = "the allocation child did not report this case"
        }
        if result.allocator == nil {
            for r in requests where result.measured[r.id] != nil {
                result.measured[r.id] = nil
                result.errors[r.id] = "the child's allocator is not jemalloc (preloading \(library) failed)"
            }
        }
        return result
    }

    /// Reads the child's output (see the protocol above); malformed lines are ignored.
    public static func parse(_ text: String) -> ChildResult {
        var r = ChildResult()
        func values(_ s: Substring) -> [Double]? {
            if s.isEmpty { return [] }
            var out: [Double] = []
            for part in s.split(separator: ",", omittingEmptySubsequences: false) {
                guard let v = Double(part), v.isFinite, v >= 0 else { return nil }
                out.append(v)
            }
            return out
        }
        for line in text.split(separator: "\n") {
            let f = line.split(separator: "\t", omittingEmptySubsequences: false)
            switch f.first {
            case "allocator" where f.count == 2:
                r.allocator = String(f[1])
            case "ok" where f.count == 5:
                guard let c = values(f[2]), let b = values(f[3]), let p = values(f[4]),
                      !c.isEmpty, c.count == b.count, p.isEmpty || p.count == c.count else { continue }
                r.measured[String(f[1])] = Samples(counts: c, bytes: b, peaks: p)
            case "error" where f.count == 3:
                r.errors[String(f[1])] = String(f[2])
            default:
                continue
            }
        }
        return r
    }

    /// One line of the child protocol for a measured case.
    static func line(id: String, _ s: Samples) -> String {
        func join(_ v: [Double]) -> String { v.map { String($0) }.joined(separator: ",") }
        return "ok\t\(id)\t\(join(s.counts))\t\(join(s.bytes))\t\(join(s.peaks))"
    }

    /// One line of the child protocol for a case that could not be measured.
    static func errorLine(id: String, _ message: String) -> String {
        let clean = message.map { $0 == "\t" || $0 == "\n" || $0 == "\r" ? " " : $0 }
        return "error\t\(id)\t\(String(clean))"
    }
}
