import JSON
import Foundation
import GeoJSON

extension DatasetProfile {
    /// One part of a FeatureCollection, profiled: the figures, the first `keep` features
    /// skipped, how many were skipped, and how the part ended. `reader` is kept for the
    /// first part, which reads the rest of the collection once the others are done.
    struct CollectionPart {
        var profile: DatasetProfile
        var problems = PartProblems()
        /// Features read, skipped ones included.
        var features = 0
        var firstStart: Int?
        var stoppedAt: Int?
        var featuresEnd: Int?
        var failure: GeoJSONError?
        var reader: GeoJSONFeatureReader?
    }

    /// Profiles features from `reader` until it ends, pauses or fails.
    static func profileCollectionPart(_ reader: GeoJSONFeatureReader, zoom: Int, keep: Int,
                                      bytesDone: (Int) -> Void) -> CollectionPart {
        var part = CollectionPart(profile: DatasetProfile(zoom: zoom, keep: keep))
        var reported = reader.skipped.count, counted = reader.bytesConsumed
        func report() {
            for k in reader.skipped.dropFirst(reported) {
                part.problems.add(.init(index: k.index, location: k.location, error: k.error), keep: keep)
            }
            reported = reader.skipped.count
        }
        do {
            while let f = try reader.next() {
                part.profile.addFeature(f)
                report()
                if reader.bytesConsumed - counted >= 1 << 20 {
                    bytesDone(reader.bytesConsumed - counted)
                    counted = reader.bytesConsumed
                }
            }
        } catch {
            part.failure = error
        }
        report()
        part.features = reader.nextIndex
        (part.firstStart, part.stoppedAt, part.featuresEnd) = (reader.firstStart, reader.stoppedAt, reader.featuresEnd)
        return part
    }

    /// The elements of `features` from the one that starts at `start`, up to `limit`.
    static func profileFeaturesPart(_ path: String, start: Int, limit: Int, zoom: Int, keep: Int,
                                    bytesDone: (Int) -> Void = { _ in }) throws -> CollectionPart {
        let reader = try GeoJSONFeatureReader(file: try FileByteSource(path: path), featuresFrom: start,
                                              options: GeoJSONReadOptions(strict: true), onInvalidFeature: .skip)
        reader.limit = limit
        return profileCollectionPart(reader, zoom: zoom, keep: keep, bytesDone: bytesDone)
    }

    /// Profiles a FeatureCollection with `jobs` threads. The file is cut at guessed
    /// feature starts (`GeoJSONCollectionParts`); the first thread reads the collection
    /// up to the first cut and pauses there, every other one reads the features from its
    /// cut to the next. The parts are added in order: a part whose cut was not where the
    /// part before it stopped (the guess fell inside a feature) is read again from there,
    /// and parts after the array's end are dropped. The first part then reads the rest of
    /// the collection from the array's end. Feature indices are renumbered, so the
    /// figures, findings and errors are exactly those of one pass.
    mutating func profileCollectionInParallel(_ path: String, jobs: Int, progress: (Int) -> Void) throws {
        let ranges = try GeoJSONCollectionParts.ranges(path: path, count: jobs)
        let (zoom, keep) = (self.zoom, self.keep)
        let results = withoutActuallyEscaping(progress) { progress in
            let parts = _ProfileParts<_Unchecked<CollectionPart>>(count: ranges.count, progress: progress)
            DispatchQueue.concurrentPerform(iterations: ranges.count) { i in
                parts.set(i, Result {
                    let limit = i + 1 < ranges.count ? ranges[i + 1].lowerBound : Int.max
                    if i == 0 {
                        let reader = try GeoJSONFeatureReader(path: path, options: GeoJSONReadOptions(strict: true),
                                                              onInvalidFeature: .skip)
                        reader.limit = limit
                        var head = Self.profileCollectionPart(reader, zoom: zoom, keep: keep, bytesDone: { parts.done($0) })
                        head.reader = reader
                        return _Unchecked(head)
                    }
                    return _Unchecked(try Self.profileFeaturesPart(path, start: ranges[i].lowerBound, limit: limit,
                                                                   zoom: zoom, keep: keep, bytesDone: { parts.done($0) }))
                })
            }
            return parts.results
        }
        let head = try results[0].get().value
        try addCollectionPart(head, base: 0)
        var base = head.features
        if var next = head.stoppedAt, let reader = head.reader {
            var end: Int?
            for i in 1..<ranges.count {
                let limit = i + 1 < ranges.count ? ranges[i + 1].lowerBound : Int.max
                var part = try? results[i].get().value
                if part?.firstStart != next {
                    part = try Self.profileFeaturesPart(path, start: next, limit: max(next, limit), zoom: zoom, keep: keep)
                }
                try addCollectionPart(part!, base: base)
                base += part!.features
                if let s = part!.stoppedAt { next = s } else { end = part!.featuresEnd; break }
            }
            guard let end else { throw Failure(description: "\(path): the features array was not read to its end") }
            try reader.resumeAfterFeatures(at: end, featureCount: base)
            var rest = Self.profileCollectionPart(reader, zoom: zoom, keep: keep, bytesDone: { _ in })
            rest.features = 0
            try addCollectionPart(rest, base: 0)
        }
        format = GeoJSONFeatureStream.layoutName(rootType: head.reader?.rootType)
        sourceBytes = ranges.last?.upperBound ?? 0
    }

    /// Adds a part whose feature indices start at `base` in the whole collection, and
    /// throws its error, renumbered, if it ended with one.
    mutating func addCollectionPart(_ p: CollectionPart, base: Int) throws {
        merge(p.profile)
        addProblems(p.problems, base: base)
        if let e = p.failure { throw e.renumberingFeatures(by: base) }
    }
}

/// A value handed from the thread that made it to the one that merges it, after the
/// first has finished with it.
struct _Unchecked<Value>: @unchecked Sendable {
    var value: Value
    init(_ value: Value) { self.value = value }
}
