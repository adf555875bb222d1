import GeoModel

/// The positions of a GPX 1.0 / 1.1 file: its tracks (with their segments), routes and
/// waypoints, as a device-location simulation needs them. Everything else (times,
/// elevations, extensions, metadata) is read past.
///
/// The reader is a small XML scanner over bytes: it understands elements, attributes
/// (single or double quotes, character and the five predefined entity references),
/// comments, CDATA, processing instructions and a DOCTYPE, strips namespace prefixes
/// (`gpx:trkpt` is `trkpt`), skips a UTF-8 byte order mark, and reports malformed input
/// with its byte offset, line and column.
public struct GPXDocument: Sendable, Equatable {
    /// A position as GPX writes it: latitude and longitude in degrees (WGS 84).
    public typealias Point = GeoPosition

    /// Tracks, each a list of segments, each a list of points (`trk/trkseg/trkpt`).
    public var tracks: [[[Point]]] = []
    /// Routes, each a list of points (`rte/rtept`).
    public var routes: [[Point]] = []
    /// Waypoints (`wpt`).
    public var waypoints: [Point] = []

    public init() {}

    /// The path a simulated device follows: the points of the first track that has any
    /// (its segments joined in order), or else of the first route that has any; nil when
    /// the file has neither.
    public var firstPath: [Point]? {
        if let t = tracks.first(where: { $0.contains { !$0.isEmpty } }) { return t.flatMap { $0 } }
        if let r = routes.first(where: { !$0.isEmpty }) { return r }
        return nil
    }
}
