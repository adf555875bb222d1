import Foundation

/// The scratch folder of this process's runs: a new folder under `$TMPDIR` (or `/tmp`),
/// unique to the process, or the folder a parent handed down in `GRATICULE_SCRATCH` (the
/// measuring children of `graticule bench` share their parent's). Whoever made it removes
/// it (``removeIfOwned()``).
public enum ScratchFolder {
    public static let environmentVariable = "GRATICULE_SCRATCH"

    /// Whether the folder came from a parent (and so is not this process's to remove).
    public static let inherited: Bool = ProcessInfo.processInfo.environment[environmentVariable].map { !$0.isEmpty } ?? false

    public static let path: String = {
        if let p = ProcessInfo.processInfo.environment[environmentVariable], !p.isEmpty { return p }
        var root = ProcessInfo.processInfo.environment["TMPDIR"] ?? "/tmp"
        if root.isEmpty { root = "/tmp" }
        while root.count > 1 && root.hasSuffix("/") { root.removeLast() }
        // Fixed width, so the children's environments are the same size from run to run.
        return root + "/graticule-" + String(format: "%010u-%08x", UInt32(getpid()), UInt32.random(in: 0 ... .max))
    }()

    /// Makes `directory` when missing; its parent (`$TMPDIR`) must exist: a run never
    /// makes the temporary folder itself.
    ///
    /// - Throws: a message naming the folder and `$TMPDIR` when it cannot be made.
    public static func make(_ directory: String) throws {
        var isDir: ObjCBool = false
        if FileManager.default.fileExists(atPath: directory, isDirectory: &isDir), isDir.boolValue { return }
        do { try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: false) } catch {
            throw ScratchError(path: directory, reason: "\(error.localizedDescription)")
        }
    }

    /// Hands the folder to child processes started from now on (`GRATICULE_SCRATCH`).
    public static func handDown() { setenv(environmentVariable, path, 1) }

    /// Removes the folder when this process made it (not when a parent handed it down).
    public static func removeIfOwned() {
        guard !inherited else { return }
        try? FileManager.default.removeItem(atPath: path)
    }
}

/// A scratch folder that cannot be made.
public struct ScratchError: Error, CustomStringConvertible {
    public var path: String
    public var reason: String
    public var description: String {
        "cannot make the scratch folder \(path): \(reason) (set TMPDIR to a writable folder)"
    }
}

/// How a run measures. The defaults suit a 2-core shared machine; `quick` is for CI smoke
/// runs and A/A checks.
public struct RunConfiguration: Sendable {
    /// Warm-up per case before sampling, in seconds (at least one operation runs).
    public var warmupSeconds: Double = 0.3
    /// Each case takes at least this many samples ...
    public var minSamples: Int = 25
    /// ... and at least this much measured time, in seconds ...
    public var minSeconds: Double = 1.0
    /// ... unless its measured time reaches this cap (it keeps at least 3 samples).
    public var maxSeconds: Double = 5.0
    /// Iterations per sample are scaled so one sample lasts about this long.
    public var targetSampleSeconds: Double = 0.02
    /// Passes of the allocation measurement (each one sample of the allocation metrics).
    public var allocationPasses: Int = 5
    /// The implementation other implementations are compared against.
    public var reference: String = "graticule"
    /// Benchmark-only slowdown hook: extra work, as a fraction of the operation, added to
    /// cases whose id contains the key (e.g. `["baseline.memscan": 0.10]` runs 10% more
    /// operations than it reports). Off by default; used to measure the gate's power.
    public var injectedSlowdown: [String: Double] = [:]
    /// Seed of the interleaving order (each round shuffles the cases).
    public var seed: UInt64 = 0x6752_6174_6963_756C
    /// Progress lines on stderr.
    public var showProgress: Bool = false
    /// The child process that measures allocations when this process does not allocate
    /// with jemalloc (see ``AllocationCounter``); nil leaves those metrics `unsupported`.
    public var allocationChild: AllocationCounter.Child?
    /// The child that runs in-process cases of implementations other than the project's
    /// (``CaseIsolation``); nil runs them in this process.
    public var isolationChild: CaseIsolation.Child?
    /// Where external programs get their dataset files (made by the runner when missing):
    /// by default this process's own folder under `$TMPDIR` (``ScratchFolder``).
    public var scratchDirectory: String = ScratchFolder.path

    public init() {}

    /// The quick profile: a few seconds for a small suite.
    public static var quick: RunConfiguration {
        var c = RunConfiguration()
        c.warmupSeconds = 0.05
        c.minSamples = 15
        c.minSeconds = 0.15
        c.maxSeconds = 1.0
        c.targetSampleSeconds = 0.005
        c.allocationPasses = 3
        return c
    }

    /// The extra fraction injected into a case, 0 when none.
    public func slowdown(for key: CaseKey) -> Double {
        let id = key.description
        return injectedSlowdown.filter { id.contains($0.key) }.map(\.value).max() ?? 0
    }
}
