/// What a conformance case expects of an implementation.
public enum Expectation: Equatable, Sendable, CustomStringConvertible {
    /// The input must be accepted; when `output` is given, the implementation's canonical
    /// output must equal it exactly.
    case accept(output: String?)
    /// The input must be rejected with this error class (nil: any rejection passes).
    case reject(errorClass: String?)
    /// Either is allowed (implementation-defined cases); the outcome is recorded.
    case either

    public var description: String {
        switch self {
        case .accept(let o): return o.map { "accept:\($0)" } ?? "accept"
        case .reject(let c): return c.map { "reject:\($0)" } ?? "reject"
        case .either: return "either"
        }
    }
}

/// What an implementation did with a case's input.
public enum Outcome: Equatable, Sendable, CustomStringConvertible {
    case accepted(output: String?)
    case rejected(errorClass: String, detail: String)
    /// The implementation gave no verdict: it crashed, hung, broke its protocol or could not
    /// run the suite. Never a pass, whatever the case expects (a dead adapter is not a
    /// rejection).
    case noVerdict(Failure, detail: String)

    /// Why an implementation gave no verdict.
    public enum Failure: String, Sendable {
        /// The program ended while it worked on the case.
        case crash
        /// The program gave no answer within the case timeout and was stopped.
        case timeout
        /// The program answered out of protocol, or could not be given the case.
        case adapterError = "adapter-error"
        /// The program said it cannot run this suite's cases.
        case unsupported
    }

    public var description: String {
        switch self {
        case .accepted(let o): return o.map { "accept:\($0)" } ?? "accept"
        case .rejected(let c, _): return "reject:\(c)"
        case .noVerdict(let f, _): return f.rawValue
        }
    }
}

/// One case of a suite: an input, what is expected of it, and the spec rule it checks.
public struct ConformanceCase: Equatable, Sendable {
    public var id: String
    /// Rule id from the spec checklists (e.g. `P1`, `RFC8259-7`), or several joined by `+`.
    public var rule: String
    public var input: [UInt8]
    public var expected: Expectation

    public init(id: String, rule: String, input: [UInt8], expected: Expectation) {
        self.id = id
        self.rule = rule
        self.input = input
        self.expected = expected
    }
}

/// A suite: cases loaded from a directory of fixtures.
public protocol ConformanceSuite {
    /// Name used by `graticule conform --suite NAME`.
    var name: String { get }
    /// Loads the cases from the suite's fixture directory.
    func loadCases(from directory: String) throws -> [ConformanceCase]
    /// Judges an accepted output that is not the case's expected output byte for byte, for
    /// suites whose outputs have more than one valid text; nil keeps the exact comparison.
    /// The default is nil.
    func judge(_ c: ConformanceCase, output: String) -> (pass: Bool, detail: String)?
}

extension ConformanceSuite {
    public func judge(_ c: ConformanceCase, output: String) -> (pass: Bool, detail: String)? { nil }
}

/// Something that can be run against a suite.
public struct ConformanceImplementation {
    public var name: String
    /// False for implementations that give a verdict but cannot produce the suite's
    /// canonical output (a decoder whose API loses the raw encoding). Their accepted cases
    /// are judged on the verdict alone, and the row's detail says so.
    public var comparesOutput: Bool
    public var run: (ConformanceCase) -> Outcome
    public init(name: String, comparesOutput: Bool = true, run: @escaping (ConformanceCase) -> Outcome) {
        self.name = name
        self.comparesOutput = comparesOutput
        self.run = run
    }
}

/// One line of a verdict report.
public struct VerdictRow: Equatable, Sendable {
    public enum Verdict: String, Sendable { case pass, fail }
    public var suite: String
    public var implementation: String
    public var caseID: String
    public var rule: String
    public var expected: String
    public var actual: String
    public var verdict: Verdict
    public var detail: String
}

public enum ConformanceRunner {
    /// Runs every case and judges it.
    ///
    /// - Complexity: one implementation call per case.
    ///
    /// - Parameters:
    ///   - suite: the suite's name, written to every row.
    ///   - cases: the cases to run.
    ///   - implementation: what runs them.
    ///   - judge: the suite's judge of outputs that differ from the expected text
    ///     (`ConformanceSuite.judge`); nil compares outputs exactly.
    public static func run(suite: String, cases: [ConformanceCase], implementation: ConformanceImplementation,
                           judge: ((ConformanceCase, String) -> (pass: Bool, detail: String)?)? = nil) -> [VerdictRow] {
        cases.map { c in
            let outcome = implementation.run(c)
            var pass: Bool
            var detail = ""
            var judgedOutput: String?
            switch (c.expected, outcome) {
            case (_, .noVerdict(_, let d)):
                pass = false
                detail = d
            case (.either, _):
                pass = true
            case (.accept(let want), .accepted(let got)):
                if !implementation.comparesOutput, want != nil {
                    pass = true
                    detail = "verdict only: this implementation gives no canonical output"
                } else {
                    pass = want == nil || want == got
                    if !pass, let got, let judged = judge?(c, got) {
                        pass = judged.pass
                        detail = judged.detail
                        judgedOutput = got
                    } else if !pass {
                        detail = "output differs: got \(got ?? "nothing")"
                    }
                }
            case (.reject(let want), .rejected(let got, let d)):
                pass = want == nil || want == got
                detail = d
            case (.accept, .rejected(_, let d)):
                pass = false
                detail = d
            case (.reject, .accepted):
                pass = false
                detail = "accepted input that must be rejected"
            }
            if case .rejected(_, let d) = outcome, detail.isEmpty { detail = d }
            return VerdictRow(suite: suite, implementation: implementation.name, caseID: c.id,
                              rule: c.rule, expected: c.expected.description,
                              actual: judgedOutput.map { Self.shortOutput($0) } ?? outcome.description, verdict: pass ? .pass : .fail,
                              detail: detail)
        }
    }

    /// A judged output as the `actual` column shows it: the first line and the size.
    static func shortOutput(_ output: String) -> String {
        let first = output.prefix { $0 != "\n" }
        return first.count == output.count ? "accept:" + output : "accept:\(first)… (\(output.utf8.count) bytes)"
    }

    /// Column order of the verdict CSV.
    public static let columns = ["suite", "implementation", "case", "rule", "expected", "actual",
                                 "verdict", "detail"]

    /// Verdict rows as RFC 4180 CSV (LF line ends).
    public static func csv(_ rows: [VerdictRow]) -> String {
        var out = columns.joined(separator: ",") + "\n"
        for r in rows {
            out += [r.suite, r.implementation, r.caseID, r.rule, r.expected, r.actual,
                    r.verdict.rawValue, r.detail].map(_csvField).joined(separator: ",") + "\n"
        }
        return out
    }

    /// Pass/fail counts per rule, in rule order.
    public static func ruleSummary(_ rows: [VerdictRow]) -> [(rule: String, pass: Int, fail: Int)] {
        var d: [String: (Int, Int)] = [:]
        for r in rows {
            for rule in r.rule.split(separator: "+").map(String.init) {
                var v = d[rule] ?? (0, 0)
                if r.verdict == .pass { v.0 += 1 } else { v.1 += 1 }
                d[rule] = v
            }
        }
        return d.keys.sorted().map { ($0, d[$0]!.0, d[$0]!.1) }
    }
}
