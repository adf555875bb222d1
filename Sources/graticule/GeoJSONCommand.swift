import ArgumentParser
import BenchKit
import Foundation
import GeoJSON
import GeoModel

struct GeoJSONCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "geojson",
        abstract: "GeoJSON tools that stream files of any size.",
        subcommands: [Validate.self, Stats.self])

    enum Format: String, ExpressibleByArgument, CaseIterable {
        case auto, collection, sequence
    }

    /// A progress line on standard error, at most twice a second, when it is a terminal.
    struct Progress {
        let total: Int?
        let start = Date()
        var last = Date.distantPast
        let enabled: Bool
        /// What the count in the line counts.
        var unit = "features"

        init(total: Int?, force: Bool = false, unit: String = "features") {
            self.total = total
            self.unit = unit
            enabled = force || isatty(2) != 0
        }

        mutating func update(_ bytes: Int, features: Int) {
            guard enabled else { return }
            let now = Date()
            guard now.timeIntervalSince(last) >= 0.5 else { return }
            last = now
            let elapsed = max(now.timeIntervalSince(start), 1e-9)
            let rate = Double(bytes) / elapsed / 1e6
            var line = "\r"
            if let total, total > 0 {
                let filled = min(20, max(0, 20 * bytes / total))
                line += "[" + String(repeating: "#", count: filled) + String(repeating: "-", count: 20 - filled) + "] "
            }
            line += String(format: "%.1f MB", Double(bytes) / 1e6)
            if let total, total > 0 {
                let left = rate > 0 ? (Double(total - bytes) / 1e6) / rate : 0
                line += String(format: " of %.1f MB (%.0f%%), %.0f MB/s, %d \(unit), %.0f s left   ",
                               Double(total) / 1e6, 100 * Double(bytes) / Double(total), rate, features, left)
            } else {
                line += String(format: ", %.0f MB/s, %d \(unit)   ", rate, features)
            }
            FileHandle.standardError.write(line.data(using: .utf8)!)
        }

        func finish() {
            if enabled && last != .distantPast { FileHandle.standardError.write("\n".data(using: .utf8)!) }
        }
    }

    /// The options `validate` and `stats` share.
    struct Input: ParsableArguments {
        @Argument(help: "A GeoJSON file, or a GeoJSON text sequence (RFC 8142 or newline-delimited).")
        var file: String

        @Option(help: "Input format: auto (by extension or a leading RS byte), collection, sequence.")
        var format: Format = .auto

        @Flag(help: "Show the progress line even when standard error is not a terminal.")
        var progress = false

        /// The file as a byte source and its progress line; exits 2 when it cannot be opened.
        func open() -> (FileByteSource, Progress) {
            let source: FileByteSource
            do { source = try FileByteSource(path: file) } catch { fail("\(error)") }
            return (source, Progress(total: source.size, force: progress))
        }
    }

    static func peakResidentBytes() -> Int? {
        guard let s = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8) else { return nil }
        for line in s.split(separator: "\n") where line.hasPrefix("VmHWM:") {
            let kb = line.split(separator: " ").dropFirst().first.flatMap { Int($0) }
            return kb.map { $0 * 1024 }
        }
        return nil
    }

    /// Streams every feature of a FeatureCollection, or of a sequence (a bare geometry
    /// becomes a feature without properties; a collection element gives its features),
    /// updating the progress line. Returns the count and first error of the sequence's
    /// broken elements, if any.
    static func forEachFeature(_ source: FileByteSource, sequence: Bool, bar: inout Progress,
                               _ body: (GeoFeature) -> Void) throws(GeoJSONError) -> (Int, GeoJSONError)?
    {
        var n = 0
        if sequence {
            let reader = GeoJSONSequenceReader(source: source)
            while let o = try reader.next() {
                switch o {
                case .geometry(let g): body(GeoFeature(geometry: g, properties: nil)); n += 1
                case .feature(let f): body(f); n += 1
                case .featureCollection(let fs): fs.forEach(body); n += fs.count
                }
                bar.update(reader.bytesConsumed, features: n)
            }
            return reader.broken.first.map { (reader.broken.count, $0.error) }
        }
        let reader = GeoJSONFeatureReader(source: source)
        while let f = try reader.next() {
            body(f)
            n += 1
            bar.update(reader.bytesConsumed, features: n)
        }
        return nil
    }

    /// Sequence formats by extension or by a leading RS byte.
    static func isSequence(_ path: String, format: Format) -> Bool {
        switch format {
        case .collection: return false
        case .sequence: return true
        case .auto:
            if [".geojsonl", ".geojsons", ".geojsonseq", ".ndjson", ".jsonl"].contains(where: { path.hasSuffix($0) }) { return true }
            guard let h = FileHandle(forReadingAtPath: path) else { return false }
            defer { try? h.close() }
            let head = h.readData(ofLength: 4096)
            return head.first(where: { $0 != 0x20 && $0 != 0x0A && $0 != 0x0D && $0 != 0x09 }) == 0x1E
        }
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
            let (file, format) = (input.file, input.format)
            var (source, bar) = input.open()
            let t0 = Date()
            var findings: [GeoJSONFinding] = []
            var count = 0
            if GeoJSONCommand.isSequence(file, format: format) {
                var o = GeoJSONReadOptions()
                o.collectFindings = true
                let reader = GeoJSONSequenceReader(source: source, options: o)
                do {
                    while try reader.next() != nil {
                        count += 1
                        bar.update(reader.bytesConsumed, features: count)
                    }
                } catch { fail("\(error)") }
                findings = reader.findings
                for b in reader.broken { findings.append(GeoJSONValidator.finding(for: b.error)) }
                findings.sort { $0.location.offset < $1.location.offset }
            } else {
                let report = GeoJSONValidator.validate(source: source) { bytes in bar.update(bytes, features: 0) }
                findings = report.findings
                count = report.featureCount
            }
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
            let size = source.size ?? 0
            print("\(file): \(errors == 0 ? "valid" : "invalid"), \(errors) errors, \(findings.count - errors) warnings, "
                + "\(count) \(GeoJSONCommand.isSequence(file, format: format) ? "elements" : "features"), "
                + String(format: "%.1f MB in %.2f s (%.0f MB/s)", Double(size) / 1e6, seconds, Double(size) / 1e6 / max(seconds, 1e-9))
                + (GeoJSONCommand.peakResidentBytes().map { String(format: ", peak resident %.1f MiB", Double($0) / 1_048_576) } ?? ""))
            if errors > 0 { throw ExitCode(1) }
        }
    }

    struct Stats: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Stream a GeoJSON file and print counts by geometry type, positions, properties and extent.",
            discussion: "Memory is bounded by the largest feature plus the read window. Exit status: 0, 1 invalid GeoJSON, 2 unreadable file.")

        @OptionGroup var input: Input

        @Option(help: "Also write the figures as CSV (metric,value).")
        var output: String?

        func run() throws {
            let (file, format) = (input.file, input.format)
            var (source, bar) = input.open()
            let t0 = Date()
            var byType: [String: Int] = [:]
            var features = 0, positions = 0, properties = 0, maxProperties = 0, maxPositions = 0, nullGeometry = 0
            var ids: [String: Int] = [:]
            var box: BoundingBox?
            func count(_ g: Geometry) {
                byType[g.kind.rawValue, default: 0] += 1
                if g.kind == .geometryCollection { g.geometries.forEach(count) }
                positions += g.positionCount
            }
            func take(_ f: GeoFeature) {
                features += 1
                if let g = f.geometry {
                    let before = positions
                    count(g)
                    maxPositions = max(maxPositions, positions - before)
                    if let b = g.boundingBox { box = box.map { $0.union(b) } ?? b }
                } else {
                    nullGeometry += 1
                }
                let n = f.properties?.count ?? 0
                properties += n
                maxProperties = max(maxProperties, n)
                switch f.id {
                case .string?: ids["string", default: 0] += 1
                case .int?, .uint?, .double?: ids["number", default: 0] += 1
                case nil: ids["none", default: 0] += 1
                }
            }
            do {
                let broken = try GeoJSONCommand.forEachFeature(source, sequence: GeoJSONCommand.isSequence(file, format: format),
                                                               bar: &bar, take)
                if let (n, first) = broken { print("broken elements: \(n) (first: \(first))") }
            } catch {
                bar.finish()
                print("\(file): \(error)")
                throw ExitCode(1)
            }
            bar.finish()
            let seconds = Date().timeIntervalSince(t0)
            let size = source.size ?? 0
            var rows: [(String, String)] = [
                ("bytes", String(size)), ("features", String(features)), ("null_geometries", String(nullGeometry)),
                ("positions", String(positions)), ("max_positions_per_feature", String(maxPositions)),
                ("properties", String(properties)), ("max_properties_per_feature", String(maxProperties)),
            ]
            for (k, v) in byType.sorted(by: { $0.key < $1.key }) { rows.append(("geometry_" + k, String(v))) }
            for (k, v) in ids.sorted(by: { $0.key < $1.key }) { rows.append(("id_" + k, String(v))) }
            if let box {
                rows.append(("bbox", "\(box.minX) \(box.minY) \(box.maxX) \(box.maxY)"))
            }
            rows.append(("seconds", String(format: "%.3f", seconds)))
            rows.append(("mb_per_s", String(format: "%.1f", Double(size) / 1e6 / max(seconds, 1e-9))))
            if let peak = GeoJSONCommand.peakResidentBytes() { rows.append(("peak_resident_bytes", String(peak))) }
            print(SummaryTable.table(header: ["metric", "value"], rows: rows.map { [$0.0, $0.1] }))
            if let output {
                let csv = "metric,value\n" + rows.map { CSV.escape($0.0) + "," + CSV.escape($0.1) }.joined(separator: "\n") + "\n"
                do { try FileIO.writeText(output, csv) } catch { fail("cannot write \(output): \(error)") }
            }
        }
    }
}
