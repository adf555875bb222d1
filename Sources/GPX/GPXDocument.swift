import GeoModel

/// The positions of a GPX 1.0 / 1.1 file: its tracks (with their segments), routes and
/// waypoints, as a device-location simulation needs them, with each track and route
/// point's heading where the file gives one (GPX 1.0's `<course>`, or a `course`, `heading`
/// or `bearing` element in the point's extensions, as Garmin's TrackPointExtension writes).
/// Everything else (times, elevations, other extensions, metadata) is read past.
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
    /// The heading of each track point in degrees clockwise from true north (0 ≤ course <
    /// 360), nil where the point has none; shaped like `tracks`.
    public var trackCourses: [[[Double?]]] = []
    /// The heading of each route point, nil where it has none; shaped like `routes`.
    public var routeCourses: [[Double?]] = []

    public init() {}

    /// The path a simulated device follows: the points of the first track that has any
    /// (its segments joined in order), or else of the first route that has any; nil when
    /// the file has neither.
    public var firstPath: [Point]? {
        if let t = tracks.first(where: { $0.contains { !$0.isEmpty } }) { return t.flatMap { $0 } }
        if let r = routes.first(where: { !$0.isEmpty }) { return r }
        return nil
    }

    /// The headings of `firstPath`'s points, one per point (nil where a point has none);
    /// nil when there is no path.
    public var firstPathCourses: [Double?]? {
        if let t = tracks.firstIndex(where: { $0.contains { !$0.isEmpty } }) { return trackCourses[t].flatMap { $0 } }
        if let r = routes.firstIndex(where: { !$0.isEmpty }) { return routeCourses[r] }
        return nil
    }
}
