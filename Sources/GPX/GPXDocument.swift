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

    /// A track or a route, by its index in `tracks` or `routes`.
    public enum PathRef: Sendable, Equatable {
        case track(Int)
        case route(Int)
    }

    /// The tracks and routes in the order the file gives them (the reader fills it; a
    /// document built by hand may leave it empty, and then tracks come before routes).
    public var order: [PathRef] = []

    public init() {}

    /// The tracks and routes in file order: `order` when it names each one once, else every
    /// track and then every route.
    public var paths: [PathRef] {
        if order.count == tracks.count + routes.count { return order }
        return tracks.indices.map { .track($0) } + routes.indices.map { .route($0) }
    }

    /// The first track or route in the file's order that has points: the path a simulated
    /// device follows, as the map SDKs' GPX location sources take "the first track or
    /// route".
    public var firstPathRef: PathRef? {
        paths.first { ref in
            switch ref {
            case .track(let t): return tracks[t].contains { !$0.isEmpty }
            case .route(let r): return !routes[r].isEmpty
            }
        }
    }

    /// The points of `firstPathRef` (a track's segments joined in order); nil when the file
    /// has no track or route with points.
    public var firstPath: [Point]? {
        switch firstPathRef {
        case .track(let t)?: return tracks[t].flatMap { $0 }
        case .route(let r)?: return routes[r]
        case nil: return nil
        }
    }

    /// The headings of `firstPath`'s points, one per point (nil where a point has none);
    /// nil when there is no path.
    public var firstPathCourses: [Double?]? {
        switch firstPathRef {
        case .track(let t)?: return trackCourses[t].flatMap { $0 }
        case .route(let r)?: return routeCourses[r]
        case nil: return nil
        }
    }
}
