import Foundation
import GraticuleSupport

/// Cases an implementation is known to fail, each with its reason, so that a run gates on
/// new failures only (`graticule conform --expected FILE`).
///
/// The file is UTF-8 text, one case per line: `SUITE/CASE-ID`, a tab, then the reason
/// (required). A line `[IMPLEMENTATION]` makes the lines after it apply to that
/// implementation only; lines before any such header apply to every implementation. Empty
/// lines and lines starting with `#` are ignored.
///
/// ```text
/// # tile-cover 3.0.2 against the exact closed cover
/// [tile-cover.js]
/// tile-cover/russia	puts longitude +180 in column 2^z, outside the grid
/// ```
public struct ExpectedFailures: Equatable, Sendable {
    public struct Entry: Equatable, Sendable {
        /// nil: every implementation.
        public var implementation: String?
        public var suite: String
        public var caseID: String
        public var reason: String
        /// 1-based line of the file.
        public var line: Int
    }

    public struct Failure: Error, Equatable, CustomStringConvertible {
        public var path: String
        public var line: Int
        public var reason: String
        public var description: String { "\(path):\(line): \(reason)" }
    }

    public var entries: [Entry]

    public init(entries: [Entry]) { self.entries = entries }

    public static func load(path: String) throws(Failure) -> ExpectedFailures {
        let text: String
        do { text = String(decoding: try FileIO.readAll(path), as: UTF8.self) } catch {
            throw Failure(path: path, line: 0, reason: "cannot read: \(error)")
        }
        return try parse(text, path: path)
    }

    public static func parse(_ text: String, path: String = "expected") throws(Failure) -> ExpectedFailures {
        var entries: [Entry] = []
        var implementation: String?
        for (i, raw) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let line = raw.hasSuffix("\r") ? raw.dropLast() : raw[...]
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            if trimmed.isEmpty || trimmed.hasPrefix("#") { continue }
            if trimmed.hasPrefix("[") {
                guard trimmed.hasSuffix("]"), trimmed.count > 2 else {
                    throw Failure(path: path, line: i + 1, reason: "a section header is [IMPLEMENTATION]")
                }
                implementation = String(trimmed.dropFirst().dropLast())
                continue
            }
            let fields = line.split(separator: "\t", maxSplits: 1, omittingEmptySubsequences: false)
            let id = fields[0]
            guard let slash = id.firstIndex(of: "/"), slash != id.startIndex, id.index(after: slash) != id.endIndex else {
                throw Failure(path: path, line: i + 1, reason: "expected SUITE/CASE-ID, a tab and the reason")
            }
            let reason = fields.count == 2 ? fields[1].trimmingCharacters(in: .whitespaces) : ""
            guard !reason.isEmpty else {
                throw Failure(path: path, line: i + 1, reason: "\(id): every expected failure needs a reason (after a tab)")
            }
            let entry = Entry(implementation: implementation, suite: String(id[..<slash]),
                              caseID: String(id[id.index(after: slash)...]), reason: reason, line: i + 1)
            if entries.contains(where: { $0.implementation == entry.implementation && $0.suite == entry.suite && $0.caseID == entry.caseID }) {
                throw Failure(path: path, line: i + 1, reason: "\(id) is listed twice")
            }
            entries.append(entry)
        }
        return ExpectedFailures(entries: entries)
    }

    /// The entry that covers a row, if any (a section's entry before a general one).
    public func entry(for row: VerdictRow) -> Entry? {
        entries.first { $0.implementation == row.implementation && $0.suite == row.suite && $0.caseID == row.caseID }
            ?? entries.first { $0.implementation == nil && $0.suite == row.suite && $0.caseID == row.caseID }
    }

    /// A run's rows of the gated implementations, sorted by what the file says of them.
    public struct Evaluation: Equatable, Sendable {
        /// Failures the file does not list: these fail the run.
        public var unexpected: [VerdictRow] = []
        /// Failures the file lists, with their reasons.
        public var expected: [(row: VerdictRow, reason: String)] = []
        /// Listed cases that passed: the file can lose these lines.
        public var unexpectedlyPassing: [(row: VerdictRow, entry: Entry)] = []

        public static func == (a: Evaluation, b: Evaluation) -> Bool {
            a.unexpected == b.unexpected && a.expected.map(\.row) == b.expected.map(\.row)
                && a.unexpectedlyPassing.map(\.row) == b.unexpectedlyPassing.map(\.row)
        }
    }

    public func evaluate(_ rows: [VerdictRow], gated: Set<String>) -> Evaluation {
        var e = Evaluation()
        for r in rows where gated.contains(r.implementation) {
            let listed = entry(for: r)
            switch (r.verdict, listed) {
            case (.fail, nil): e.unexpected.append(r)
            case (.fail, let l?): e.expected.append((r, l.reason))
            case (.pass, let l?): e.unexpectedlyPassing.append((r, l))
            case (.pass, nil): break
            }
        }
        return e
    }
}
