import ArgumentParser
import GraticuleSupport
import Foundation
import DatasetProfile
import GeoJSON
import GeoModel

struct GeoJSONCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "geojson",
        abstract: "GeoJSON tools that stream files of any size.",
        subcommands: [Validate.self, Stats.self])

    typealias Format = GeoJSONFeatureStream.Format

    /// The options `validate` and `stats` share.
    struct Input: ParsableArguments {
        @Argument(help: "A GeoJSON file, or a GeoJSON text sequence (RFC 8142 or newline-delimited).")
        var file: String

        @Option(help: "Input format: auto (by extension or a leading RS byte), collection, sequence.")
        var format: Format = .auto

        @Flag(help: "Show the progress line even when standard error is not a terminal.")
        var progress = false

        /// The file as a feature stream and its progress line; exits 2 when it cannot be opened.
        func open(lenient: Bool = false) -> (GeoJSONFeatureStream, ProgressLine) {
            let stream: GeoJSONFeatureStream
            do { stream = try GeoJSONFeatureStream(path: file, format: format, lenient: lenient) } catch { fail("\(error)") }
            return (stream, ProgressLine(total: stream.source.size, force: progress))
        }
    }

    /// Streams every feature of `stream` to `body`, drawing `bar`; returns the number of
    /// broken sequence elements skipped and the first one's error.
    static func forEachFeature(_ stream: inout GeoJSONFeatureStream, bar: inout ProgressLine,
                               _ body: (GeoFeature) -> Void) throws(GeoJSONError) -> (Int, GeoJSONError)? {
        var broken: (Int, GeoJSONError)?
        try stream.forEach(progress: { bar.update($0, count: $1) }, problem: { broken = tally(broken, $0) }, body)
        return broken
    }

    /// `broken` with one more problem (its count, and the first one's error).
    static func tally(_ broken: (Int, GeoJSONError)?, _ p: GeoJSONFeatureStream.Problem) -> (Int, GeoJSONError) {
        ((broken?.0 ?? 0) + 1, broken?.1 ?? p.error)
    }

    /// Streams every feature of `stream` to `body` in column batches, property values
    /// skipped (names kept), drawing `bar`; returns the number of broken sequence elements
    /// skipped and the first one's error.
    static func forEachBatch(_ stream: inout GeoJSONFeatureStream, bar: inout ProgressLine,
                             _ body: (GeoJSONFeatureBatch) -> Void) throws(GeoJSONError) -> (Int, GeoJSONError)? {
        var broken: (Int, GeoJSONError)?
        try stream.forEachBatch(options: .propertyNamesOnly, progress: { bar.update($0, count: $1) },
                                problem: { broken = tally(broken, $0) }, body)
        return broken
    }

    struct Validate: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Validate a GeoJSON file against RFC 7946 / RFC 8259 and list every finding.",
            discussion: """
                Errors are MUST violations (the file is not valid GeoJSON); warnings are SHOULDs and \
                things parsers must accept. A FeatureCollection is checked feature by feature with \
                memory bounded by the largest feature. Exit status: 0 valid (warnings allowed), \
                1 errors found, 2 unreadable file.
                """)

        @OptionGroup var input: Input

        @Option(help: "Also write the findings as CSV (severity,rule,offset,line,column,path,message).")
        var output: String?

        @Option(help: "Print at most this many findings.")
        var limit = 50

        func run() throws {
            guard limit >= 0 else { fail("--limit must be 0 or more, got \(limit)") }
            var (stream, bar) = input.open()
            let source = stream.source
            let t0 = Date()
            let report: GeoJSONValidator.Report
            if stream.isSequence {
                do { report = try GeoJSONValidator.validateSequence(source: source) { bar.update($0, count: $1) } } catch { fail("\(error)") }
            } else {
                report = GeoJSONValidator.validate(source: source) { bytes in bar.update(bytes, count: 0) }
            }
            let findings = report.findings, count = report.featureCount
            bar.finish()
            let errors = findings.filter { $0.severity == .error }.count
            for f in findings.prefix(limit) { print(f) }
            if findings.count > limit { print("... \(findings.count - limit) more") }
            if let output {
                var csv = "severity,rule,offset,line,column,path,message\n"
                for f in findings {
                    csv += [f.severity.rawValue, f.rule, String(f.location.offset), String(f.location.line),
                            String(f.location.column), f.pathString, f.message].map(CSV.escape).joined(separator: ",") + "\n"
                }
                do { try FileIO.writeText(output, csv) } catch { fail("cannot write \(output): \(error)") }
            }
            let seconds = Date().timeIntervalSince(t0)
            let size = source.size ?? source.bytesRead
            print("\(input.file): \(errors == 0 ? "valid" : "invalid"), \(counted(errors, "error")), \(counted(findings.count - errors, "warning")), "
                + counted(count, stream.isSequence ? "element" : "feature") + ", "
                + String(format: "%.1f MB in %.2f s (%.0f MB/s)", Double(size) / 1e6, seconds, Double(size) / 1e6 / max(seconds, 1e-9))
                + (ProcessStatus.peakResidentBytes().map { String(format: ", peak resident %.1f MiB", Double($0) / 1_048_576) } ?? ""))
            if errors > 0 { throw ExitCode(1) }
        }
    }

    struct Stats: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Stream a GeoJSON file and print counts by geometry type, positions, properties and extent.",
            discussion: "Features are read in column batches of about 1 MiB of input, property names without their values. Memory is bounded by the largest feature, the read window and one batch. Input that `geojson validate` finds in error is refused (exit 2, nothing written), unless --lenient. Exit status: 0, 2 invalid GeoJSON or unreadable file.")

        @OptionGroup var input: Input

        @Flag(help: "Count what can still be read: skip broken elements of a sequence and read features that break a MUST of RFC 7946 reading can go past (no geometry or properties member, a member §7.1 forbids), listing both. Errors that stop reading still exit 2.")
        var lenient = false

        @Option(help: "Also write the figures as CSV (metric,value).")
        var output: String?

        @Option(help: "Also write the figures as one JSON object (schema 'graticule-geojson-stats/1': each metric a number, bbox an array).")
        var json: String?

        func run() throws {
            let file = input.file
            var (stream, bar) = input.open(lenient: lenient)
            let source = stream.source
            let t0 = Date()
            var stats = FeatureStatistics()
            do {
                let broken = try GeoJSONCommand.forEachBatch(&stream, bar: &bar) { stats.add(batch: $0) }
                if let (n, first) = broken {
                    guard lenient else {
                        bar.finish()
                        fail("\(file): \(n) broken element\(n == 1 ? "" : "s") (first: \(first)); nothing written (--lenient skips them, listing them)")
                    }
                    print("broken elements skipped (--lenient): \(n) (first: \(first))")
                }
            } catch {
                bar.finish()
                fail("\(file): \(error); nothing written")
            }
            bar.finish()
            if stream.toleratedViolations > 0 {
                print("RFC 7946 violations read past (--lenient): \(stream.toleratedViolations)")
            }
            let seconds = Date().timeIntervalSince(t0)
            let size = source.size ?? source.bytesRead
            var rows = [("bytes", String(size))] + stats.rows()
            rows.append(("seconds", String(format: "%.3f", seconds)))
            rows.append(("mb_per_s", String(format: "%.1f", Double(size) / 1e6 / max(seconds, 1e-9))))
            if let peak = ProcessStatus.peakResidentBytes() { rows.append(("peak_resident_bytes", String(peak))) }
            print(TextTable.render(header: ["metric", "value"], rows: rows.map { [$0.0, $0.1] }))
            // --output and --json are written as a set: both or neither.
            var files: [(path: String, bytes: [UInt8])] = []
            if let output {
                let csv = "metric,value\n" + rows.map { CSV.escape($0.0) + "," + CSV.escape($0.1) }.joined(separator: "\n") + "\n"
                files.append((output, Array(csv.utf8)))
            }
            if let json {
                var members: [(key: String, value: PropertyValue)] = [("schema", .string("graticule-geojson-stats/1")), ("file", .string(file))]
                for (k, v) in rows {
                    if k == "bbox" {
                        members.append((k, .array(v.split(separator: " ").compactMap { Double($0) }.map { .double($0) })))
                    } else if let i = Int64(v) {
                        members.append((k, .int(i)))
                    } else if let d = Double(v) {
                        members.append((k, .double(d)))
                    } else {
                        members.append((k, .string(v)))
                    }
                }
                files.append((json, Array((GeoJSONWriter.value(.object(PropertyList(members))) + "\n").utf8)))
            }
            do { try FileIO.writeAll(files) } catch { fail("cannot write \(error); none of the outputs was written") }
        }
    }
}
extension GeoJSONFeatureStream.Format: ExpressibleByArgument {}
