import Foundation

/// One `conform` run as a library call: which suites run (one named, or every suite whose
/// fixtures are present), which implementations each suite runs, and the run itself —
/// graticule's own implementation in this process, every other in-process implementation in
/// a child process of `executable` (a trap there is that case's crash), external programs
/// through their manifests.
public struct ConformanceSession {
    /// Why a session cannot run; the message names what to change.
    public struct Failure: Error, Equatable, CustomStringConvertible {
        public var description: String
        public init(_ description: String) { self.description = description }
    }

    /// A suite chosen to run, and the folder its fixtures are read from.
    public typealias SelectedSuite = (entry: ConformanceRegistry.Entry, folder: String)

    /// The suites to run: `name` (from `folder`, or its usual place under `corpora`), or with
    /// no name every registered suite whose folder exists (the others are returned as
    /// `skipped`).
    ///
    /// - Throws: `Failure` for an unknown suite, a folder without a suite name, or no suite
    ///   present at all (`missing` says where fixtures come from).
    public static func suites(named name: String?, folder: String?, corpora: String,
                              missing: String) throws(Failure) -> (selected: [SelectedSuite], skipped: [String]) {
        if let name {
            guard let e = ConformanceRegistry.entry(named: name) else {
                throw Failure("unknown suite '\(name)'; known: \(ConformanceRegistry.names.joined(separator: ", "))")
            }
            return ([(e, folder ?? e.path(corpora: corpora))], [])
        }
        if folder != nil { throw Failure("--path needs --suite") }
        var selected: [SelectedSuite] = [], skipped: [String] = []
        for e in ConformanceRegistry.entries {
            let p = e.path(corpora: corpora)
            var isDir: ObjCBool = false
            if FileManager.default.fileExists(atPath: p, isDirectory: &isDir), isDir.boolValue {
                selected.append((e, p))
            } else {
                skipped.append(e.name)
            }
        }
        guard !selected.isEmpty else { throw Failure("no suite fixtures found; " + missing) }
        return (selected, skipped)
    }

    /// The implementations a suite runs, from the names asked for (`all` is every one the
    /// suite has), once each, in the order asked. A name that only an external program
    /// answers is left to that program. With `strict` (one suite named), a name the suite
    /// does not have is an error; otherwise it is skipped for that suite.
    public static func implementations(for suite: String, wanted: [String],
                                       available: [(String, () -> ConformanceImplementation)],
                                       externalNames: Set<String>, strict: Bool) throws(Failure) -> [ConformanceImplementation] {
        var impls: [ConformanceImplementation] = []
        for name in wanted {
            if name == "all" { impls += available.map { $0.1() }; continue }
            if let f = available.first(where: { $0.0 == name }) {
                impls.append(f.1())
            } else if !externalNames.contains(name) && strict {
                throw Failure("suite '\(suite)' has no implementation '\(name)'; it has: \(available.map(\.0).joined(separator: ", "))")
            }
        }
        var seen = Set<String>()
        return impls.filter { seen.insert($0.name).inserted }
    }

    /// What a run gave: every verdict, and the external programs that never started (each
    /// a failure of the run, never a suite of zero cases).
    public struct Outcome {
        public var rows: [VerdictRow] = []
        public var startFailures: [String] = []
        public init() {}
    }

    /// Runs `implementations` and the external programs that take part on one suite's cases.
    ///
    /// - Parameters:
    ///   - selected: the suite and its folder.
    ///   - cases: the suite's cases, loaded from that folder.
    ///   - implementations: the in-process implementations to run (`implementations(for:...)`).
    ///   - externals: the external programs' manifests; those listing the suite take part.
    ///   - executable: the program whose `conform --serve-implementation` answers for the
    ///     in-process implementations other than graticule's.
    ///   - timeout: the per-case timeout of those children.
    ///   - outcome: where the verdicts and the start failures are added.
    ///   - report: called with each external program that did not start, as it happens.
    public static func run(_ selected: SelectedSuite, cases: [ConformanceCase], implementations: [ConformanceImplementation],
                           externals: [ExternalConformanceManifest], executable: String, timeout: Double,
                           into outcome: inout Outcome, report: (String) -> Void = { _ in }) {
        let name = selected.entry.name
        let suite = selected.entry.make()
        var programs: [ExternalConformanceManifest] = []
        for impl in implementations {
            guard impl.name != "graticule" else {
                outcome.rows += ConformanceRunner.run(suite: name, cases: cases, implementation: impl, judge: suite.judge)
                continue
            }
            programs.append(ConformanceIsolation.manifest(name: impl.name, suite: name, comparesOutput: impl.comparesOutput,
                                                          executable: executable, timeout: timeout))
        }
        for m in programs + externals.filter({ $0.suites.contains(name) }) {
            do { outcome.rows += try ExternalConformanceProgram.run(m, suite: name, cases: cases, judge: suite.judge) } catch {
                report("\(error)")
                outcome.startFailures.append("\(m.name) (\(name)): \(error)")
            }
        }
    }
}
