import Foundation
import GeoJSON

extension DatasetProfile {
    /// One part of a GeoJSON sequence file, profiled: the figures, the first `keep`
    /// problems with their element indices counted from the part's start, how many
    /// problems there were, and how the part ended.
    struct SequencePart {
        var profile: DatasetProfile
        var problems: [GeoJSONFeatureStream.Problem] = []
        var problemCount = 0
        var end: GeoJSONFeatureStream.PartEnd
    }

    /// Profiles the elements of the sequence file at `path` that start in `range`.
    /// `bytesDone` gets the bytes read since its last call.
    static func profileSequencePart(_ path: String, range: Range<Int>, format: GeoJSONSequenceReader.Format,
                                    zoom: Int, keep: Int, bytesDone: (Int) -> Void = { _ in }) throws -> SequencePart {
        var stream = try GeoJSONFeatureStream(path: path, part: range, format: format)
        var profile = DatasetProfile(zoom: zoom, keep: keep)
        var problems: [GeoJSONFeatureStream.Problem] = []
        var count = 0
        var reported = range.lowerBound
        try stream.forEach(progress: { bytes, _ in
                               if bytes > reported { bytesDone(bytes - reported); reported = bytes }
                           },
                           problem: {
                               count += 1
                               if problems.count < keep { problems.append($0) }
                           },
                           { profile.addFeature($0) })
        return SequencePart(profile: profile, problems: problems, problemCount: count, end: stream.partEnd!)
    }

    /// Adds a part that follows the parts added so far, whose elements are numbered from
    /// `elementBase` in the whole file.
    mutating func addSequencePart(_ p: SequencePart, elementBase: Int) {
        merge(p.profile)
        for var q in p.problems {
            q.index += elementBase
            finding(error: true, "\(q)")
        }
        errors += p.problemCount - p.problems.count
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
