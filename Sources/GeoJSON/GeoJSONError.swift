import JSON

/// Why a GeoJSON text was rejected, where, and in which member: the `JSON` module's error,
/// whose `invalidGeoJSON` kind this module raises for RFC 7946 rules.
public typealias GeoJSONError = JSONError

/// Where a streaming GeoJSON reader gets its bytes (the `JSON` module's byte source).
public typealias GeoJSONByteSource = JSONByteSource

/// A read failure of a byte source (not of the data).
public typealias GeoJSONSourceError = JSONSourceError

extension JSONError {
    /// This error with the index of its `features[i]` path component moved by `base`
    /// (an error of a reader of part of a collection, `GeoJSONFeatureReader.init(file:featuresFrom:)`,
    /// located in the whole collection).
    public func renumberingFeatures(by base: Int) -> JSONError {
        guard path.count >= 2, path[0] == .key("features"), case .index(let i) = path[1] else { return self }
        var e = self
        e.path[1] = .index(i + base)
        return e
    }
}
