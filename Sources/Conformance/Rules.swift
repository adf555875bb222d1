import ConformanceData
import Foundation

/// One rule of the spec checklists, as listed in `corpora/conformance/rules.tsv`.
public struct SpecRule: Equatable, Sendable {
    public var id: String
    /// The checklist file under `../shared/specs` (or `project` for the project's own rules).
    public var spec: String
    public var section: String
    /// RFC 2119 level: MUST, SHOULD or MAY.
    public var level: String
    public var summary: String

    public init(id: String, spec: String, section: String, level: String, summary: String) {
        self.id = id
        self.spec = spec
        self.section = section
        self.level = level
        self.summary = summary
    }
}

/// The machine-readable rule catalogue and the per-rule view of a conformance run.
public enum RuleCatalog {
    public enum Error: Swift.Error, CustomStringConvertible, Equatable {
        case unreadable(String)
        /// A line that is not five tab-separated fields (1-based line number).
        case malformedLine(line: Int, text: String)
        case duplicateID(line: Int, id: String)

        public var description: String {
            switch self {
            case .unreadable(let p): return "\(p): cannot read the rule catalogue"
            case .malformedLine(let l, let t): return "rules line \(l): expected 5 tab-separated fields, got '\(t)'"
            case .duplicateID(let l, let id): return "rules line \(l): rule \(id) is listed twice"
            }
        }
    }

    /// The catalogue shipped with Graticule (a package resource, found from any working
    /// folder); its source is `corpora/conformance/rules.tsv`.
    public static var defaultPath: String { (ConformanceData.folder ?? ConformanceData.missingFolder) + "/rules.tsv" }

    /// Parses the catalogue: `#` comments, one header line starting with `id`, then rules.
    public static func parse(_ text: String) throws(Error) -> [SpecRule] {
        var rules: [SpecRule] = []
        var seen = Set<String>()
        for (n, raw) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let line = raw.hasSuffix("\r") ? raw.dropLast() : raw
            if line.isEmpty || line.hasPrefix("#") || line.hasPrefix("id\t") { continue }
            let f = line.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
            guard f.count == 5, !f[0].isEmpty else { throw .malformedLine(line: n + 1, text: String(line)) }
            guard seen.insert(f[0]).inserted else { throw .duplicateID(line: n + 1, id: f[0]) }
            rules.append(SpecRule(id: f[0], spec: f[1], section: f[2], level: f[3], summary: f[4]))
        }
        return rules
    }

    public static func load(path: String) throws(Error) -> [SpecRule] {
        guard let data = FileManager.default.contents(atPath: path) else { throw .unreadable(path) }
        return try parse(String(decoding: data, as: UTF8.self))
    }

    /// What a run says about one rule.
    public struct Coverage: Equatable, Sendable {
        public var rule: SpecRule
        /// Cases citing the rule, as `suite/case`, across implementations (graticule's rows).
        public var cases: [String]
        public var pass: Int
        public var fail: Int
        public var suites: [String]
    }

    /// The per-rule summary of verdict rows: every catalogued rule with the cases of the
    /// `implementation` that cite it (an empty `cases` list is a rule no case exercises),
    /// and the ids the rows cite that the catalogue lacks.
    public static func coverage(rules: [SpecRule], rows: [VerdictRow],
                                implementation: String = "graticule") -> (rules: [Coverage], unknown: [String]) {
        var index: [String: Int] = [:]
        var out = rules.map { Coverage(rule: $0, cases: [], pass: 0, fail: 0, suites: []) }
        for (i, r) in rules.enumerated() { index[r.id] = i }
        var unknown = Set<String>()
        for row in rows where row.implementation == implementation {
            for id in row.rule.split(separator: "+").map(String.init) {
                guard let i = index[id] else { unknown.insert(id); continue }
                out[i].cases.append(row.suite + "/" + row.caseID)
                if row.verdict == .pass { out[i].pass += 1 } else { out[i].fail += 1 }
                if !out[i].suites.contains(row.suite) { out[i].suites.append(row.suite) }
            }
        }
        return (out, unknown.sorted())
    }

    /// The per-rule summary as CSV: rule, spec, section, level, cases, pass, fail, suites, examples.
    public static func csv(_ coverage: [Coverage]) -> String {
        var out = "rule,spec,section,level,cases,pass,fail,suites,example_cases\n"
        for c in coverage {
            let examples = c.cases.prefix(5).joined(separator: " ")
            out += [c.rule.id, c.rule.spec, c.rule.section, c.rule.level, String(c.cases.count), String(c.pass),
                    String(c.fail), c.suites.joined(separator: " "), examples].map(_csvField).joined(separator: ",") + "\n"
        }
        return out
    }
}

func _csvField(_ s: String) -> String {
    guard s.contains(where: { $0 == "," || $0 == "\"" || $0 == "\n" || $0 == "\r" }) else { return s }
    var out = "\""
    for ch in s { out += ch == "\"" ? "\"\"" : String(ch) }
    return out + "\""
}
