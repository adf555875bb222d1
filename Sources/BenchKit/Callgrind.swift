import GraticuleSupport
import Foundation

/// Instruction counts per operation from valgrind's callgrind.
///
/// The runner starts a child (this executable, `childArguments`) under
/// `valgrind --tool=callgrind --collect-atstart=no --toggle-collect=*graticuleMeasuredRegion*`,
/// so only the measured region is counted. Each case runs twice, with `n₁` and `n₂`
/// iterations; (Ir(n₂) − Ir(n₁)) / (n₂ − n₁) cancels the fixed cost of entering the region.
/// Hashing is made deterministic in the child (`SWIFT_DETERMINISTIC_HASHING=1`) so the
/// count repeats exactly.
public enum InstructionCounter {
    public enum Failure: Error, CustomStringConvertible {
        case valgrindMissing
        case childFailed(String)
        case noTotals(String)
        public var description: String {
            switch self {
            case .valgrindMissing: return "valgrind is not installed (apt-get install valgrind)"
            case .childFailed(let s): return "callgrind run failed: \(s)"
            case .noTotals(let s): return "callgrind wrote no totals: \(s)"
            }
        }
    }

    public static var valgrindAvailable: Bool {
        RunEnvironment.shell(["valgrind", "--version"]) != nil
    }

    /// Total instructions (Ir) recorded in a callgrind output file.
    public static func totalInstructions(callgrindOutput text: String) -> UInt64? {
        for line in text.split(separator: "\n") where line.hasPrefix("totals:") || line.hasPrefix("summary:") {
            let parts = line.split(separator: " ")
            if parts.count >= 2, let v = UInt64(parts[1]) { return v }
        }
        return nil
    }

    /// Runs one child under callgrind and returns the instructions of its measured region.
    ///
    /// - Parameters:
    ///   - executable: the binary to run under valgrind.
    ///   - childArguments: its arguments.
    ///   - scratch: a folder for the callgrind output while it is read.
    ///   - keepProfile: when given, the callgrind output is moved there (readable by
    ///     `callgrind_annotate`) instead of being deleted.
    public static func count(executable: String, childArguments: [String], scratch: String,
                             keepProfile: String? = nil) throws -> UInt64 {
        try? FileManager.default.createDirectory(atPath: scratch, withIntermediateDirectories: true)
        let out = scratch + "/callgrind.\(UInt64.random(in: 0...UInt64.max)).out"
        defer {
            if let keepProfile {
                try? FileManager.default.removeItem(atPath: keepProfile)
                try? FileManager.default.moveItem(atPath: out, toPath: keepProfile)
            }
            try? FileManager.default.removeItem(atPath: out)
        }
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        p.arguments = ["valgrind", "--tool=callgrind", "--callgrind-out-file=" + out,
                       "--collect-atstart=no", "--toggle-collect=*graticuleMeasuredRegion*",
                       executable] + childArguments
        var env = ProcessInfo.processInfo.environment
        env["SWIFT_DETERMINISTIC_HASHING"] = "1"
        p.environment = env
        let err = Pipe()
        p.standardError = err
        p.standardOutput = FileHandle.nullDevice
        do { try p.run() } catch { throw Failure.valgrindMissing }
        let errData = err.fileHandleForReading.readDataToEndOfFile()
        p.waitUntilExit()
        guard p.terminationStatus == 0 else {
            let tail = String(decoding: errData.suffix(600), as: UTF8.self)
            throw Failure.childFailed("exit \(p.terminationStatus): \(tail)")
        }
        guard let text = try? FileIO.readText(out), let total = totalInstructions(callgrindOutput: text) else {
            throw Failure.noTotals(out)
        }
        return total
    }

    /// Instructions per operation of one case: two child runs with `small` and `large`
    /// iterations; `makeArguments(n)` gives the child's arguments for n iterations. With
    /// `keepProfile`, the `large` run's callgrind output is kept at that path.
    public static func perOperation(executable: String, small: Int, large: Int, scratch: String,
                                    keepProfile: String? = nil, makeArguments: (Int) -> [String]) throws -> Double {
        try perOperation(executable: executable, small: small, large: { _ in large }, scratch: scratch,
                         keepProfile: keepProfile, makeArguments: makeArguments).perOperation
    }

    /// As above, with the larger count chosen from the smaller run's instructions (so it
    /// depends on nothing that varies between runs, as a time would): `large(Ir(small))`.
    /// Returns the instructions per operation and the larger count.
    public static func perOperation(executable: String, small: Int, large: (UInt64) -> Int, scratch: String,
                                    keepProfile: String? = nil,
                                    makeArguments: (Int) -> [String]) throws -> (perOperation: Double, large: Int) {
        let a = try count(executable: executable, childArguments: makeArguments(small), scratch: scratch)
        let n = large(a)
        precondition(n > small, "large must exceed small")
        let b = try count(executable: executable, childArguments: makeArguments(n), scratch: scratch,
                          keepProfile: keepProfile)
        return ((Double(b) - Double(a)) / Double(n - small), n)
    }
}
