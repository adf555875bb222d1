import GraticuleSupport
import Foundation

/// Verdict rows in the formats CI systems read.
public enum VerdictExports {
    /// JUnit XML: one `testsuite` per suite and implementation (named `SUITE/IMPLEMENTATION`),
    /// one `testcase` per case; a failing case has a `failure` whose `type` is the rule id
    /// and whose message says what was expected and what came.
    public static func junit(_ rows: [VerdictRow]) -> String {
        var order: [String] = []
        var groups: [String: [VerdictRow]] = [:]
        for r in rows {
            let k = r.suite + "/" + r.implementation
            if groups[k] == nil { order.append(k) }
            groups[k, default: []].append(r)
        }
        let failures = rows.filter { $0.verdict == .fail }.count
        var out = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
        out += "<testsuites name=\"graticule conform\" tests=\"\(rows.count)\" failures=\"\(failures)\" errors=\"0\">\n"
        for k in order {
            let g = groups[k]!
            out += "  <testsuite name=\"\(xml(k))\" tests=\"\(g.count)\" failures=\"\(g.filter { $0.verdict == .fail }.count)\" errors=\"0\" skipped=\"0\">\n"
            for r in g {
                let open = "    <testcase classname=\"\(xml(r.suite + "." + r.implementation))\" name=\"\(xml(r.caseID))\""
                if r.verdict == .pass {
                    out += open + "/>\n"
                } else {
                    out += open + ">\n"
                    out += "      <failure type=\"\(xml(r.rule))\" message=\"\(xml("[\(r.rule)] expected \(r.expected), got \(short(r.actual))"))\">"
                    out += xml(r.detail) + "</failure>\n"
                    out += "    </testcase>\n"
                }
            }
            out += "  </testsuite>\n"
        }
        return out + "</testsuites>\n"
    }

    /// A Markdown summary for a CI job page: the implementation × suite table, then the
    /// failing cases (the first `limit`) with their rules.
    public static func markdown(_ rows: [VerdictRow], limit: Int = 50) -> String {
        var out = "## Conformance\n\n| suite | implementation | pass | fail | no verdict |\n|---|---|---|---|---|\n"
        for t in ConformanceTally.tally(rows) {
            out += "| \(cell(t.suite)) | \(cell(t.implementation)) | \(t.pass)/\(t.cases) | \(t.fail) | \(t.unsupported) |\n"
        }
        let failing = rows.filter { $0.verdict == .fail }
        if failing.isEmpty { return out + "\nEvery case passed.\n" }
        out += "\n<details><summary>\(failing.count) failing case\(failing.count == 1 ? "" : "s")</summary>\n\n"
        out += "| suite | implementation | case | rule | expected | got | detail |\n|---|---|---|---|---|---|---|\n"
        for r in failing.prefix(limit) {
            out += "| \(cell(r.suite)) | \(cell(r.implementation)) | \(cell(r.caseID)) | \(cell(r.rule)) | \(cell(short(r.expected))) | \(cell(short(r.actual))) | \(cell(short(r.detail, 160))) |\n"
        }
        if failing.count > limit { out += "\n… and \(failing.count - limit) more (see the verdict CSV).\n" }
        return out + "\n</details>\n"
    }

    static func short(_ s: String, _ n: Int = 120) -> String {
        let line = s.split(whereSeparator: \.isNewline).first.map(String.init) ?? ""
        return line.count > n ? String(line.prefix(n)) + "…" : (line.count < s.count ? line + "…" : line)
    }

    static func cell(_ s: String) -> String {
        s.replacingOccurrences(of: "|", with: "\\|").replacingOccurrences(of: "\n", with: " ")
    }

    static func xml(_ s: String) -> String { HTML.escape(s, xml: true) }
}
