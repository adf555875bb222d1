import Foundation
import GeoJSON

extension DatasetProfile {
    /// The problems of one part of a GeoJSON file: the first `keep`, with indices counted
    /// from the part's start, and how many there were.
    struct PartProblems {
        var kept: [GeoJSONFeatureStream.Problem] = []
        var count = 0

        mutating func add(_ p: GeoJSONFeatureStream.Problem, keep: Int) {
            count += 1
            if kept.count < keep { kept.append(p) }
        }
    }

    /// Adds the problems of a part whose elements or features follow `base` others in the
    /// whole file, as findings in order.
    mutating func addProblems(_ p: PartProblems, base: Int) {
        for q in p.kept { finding(error: true, "\(q.renumbered(by: base))") }
        errors += p.count - p.kept.count
    }

    /// One part of a GeoJSON sequence file, profiled: the figures, the problems, and how
    /// the part ended.
    struct SequencePart {
        var profile: DatasetProfile
        var problems = PartProblems()
        var end: GeoJSONFeatureStream.PartEnd
    }

    /// Profiles the elements of the sequence file at `path` that start in `range`.
    /// `bytesDone` gets the bytes read since its last call.
    static func profileSequencePart(_ path: String, range: Range<Int>, format: GeoJSONSequenceReader.Format,
                                    zoom: Int, keep: Int, bytesDone: (Int) -> Void = { _ in }) throws -> SequencePart {
        var stream = try GeoJSONFeatureStream(path: path, part: range, format: format)
        var profile = DatasetProfile(zoom: zoom, keep: keep)
        var problems = PartProblems()
        var reported = range.lowerBound
        try stream.forEach(progress: { bytes, _ in
                               if bytes > reported { bytesDone(bytes - reported); reported = bytes }
                           },
                           problem: { problems.add($0, keep: keep) },
                           { profile.addFeature($0) })
        return SequencePart(profile: profile, problems: problems, end: stream.partEnd!)
    }

    /// Adds a part that follows the parts added so far, whose elements are numbered from
    /// `elementBase` in the whole file.
    mutating func addSequencePart(_ p: SequencePart, elementBase: Int) {
        merge(p.profile)
        addProblems(p.problems, base: elementBase)
    }

    /// Profiles a GeoJSON text sequence or newline-delimited file with `jobs` threads: the
    /// file is cut into `jobs` ranges between elements (`GeoJSONSequenceParts`), each
    /// range is profiled by its own reader, and the parts are added in order with their
    /// element indices renumbered, which gives exactly the figures and findings of one
    /// pass. A part whose cut fell inside a multi-line element (read whole by the part
    /// before) is read again from where that element ended.
    mutating func profileSequenceInParallel(_ path: String, jobs: Int, progress: (Int) -> Void) throws {
        let (fileFormat, ranges) = try GeoJSONSequenceParts.ranges(path: path, count: jobs)
        let (zoom, keep) = (self.zoom, self.keep)
        let results = withoutActuallyEscaping(progress) { progress in
            let parts = _ProfileParts<SequencePart>(count: ranges.count, progress: progress)
            DispatchQueue.concurrentPerform(iterations: ranges.count) { i in
                parts.set(i, Result {
                    try Self.profileSequencePart(path, range: ranges[i], format: fileFormat, zoom: zoom, keep: keep,
                                                 bytesDone: { parts.done($0) })
                })
            }
            return parts.results
        }
        var next = 0
        var elementBase = 0
        for (i, result) in results.enumerated() {
            var part = try result.get()
            if i > 0 && part.end.firstStart != next {
                part = try Self.profileSequencePart(path, range: next..<max(next, ranges[i].upperBound), format: fileFormat,
                                                    zoom: zoom, keep: keep)
            }
            addSequencePart(part, elementBase: elementBase)
            elementBase += part.end.elements
            next = part.end.stoppedAt
        }
        // One pass names the format after its first element, and has none to go by when
        // there is no element.
        format = GeoJSONFeatureStream.layoutName(elementBase > 0 ? fileFormat : nil)
        sourceBytes = ranges.last?.upperBound ?? 0
    }
}
