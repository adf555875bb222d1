import BenchKit
import GeoModel
import SourceDiff
import TileCover

/// Parses GeoJSON text (RFC 7946) into the implementation's own model: the operation of
/// `geojson.parse` (mode `whole`).
public protocol GeoJSONParsing {
    associatedtype Document
    /// Reads the whole document; throws on input it rejects. This is what is timed.
    func parse(_ bytes: [UInt8]) throws -> Document
    /// Gives every feature, position and property of the document to `digest` (untimed,
    /// once per dataset, compared with graticule's before the parser is timed).
    func digest(_ document: Document, into digest: inout GeoJSONDigest)
}

/// Covers a geometry with the Web Mercator tiles of one zoom that it touches (closed
/// squares, tilecover.md §6.1): the operation of `tilecover.polygon`, `tilecover.lines`
/// and `tilecover.points`. The tiles are compared with graticule's as a multiset.
public protocol TileCovering {
    func tiles(for geometry: Geometry, zoom: Int) throws -> [TileID]
}

/// Covers a map camera's view with tiles: the operation of `tilecover.camera`.
public protocol CameraCovering {
    func tiles(for camera: Camera, options: CameraCoverOptions) throws -> [CameraTile]
}

/// Decodes one Mapbox Vector Tile (MVT 2.1) fully: every layer, key, value, feature, tag
/// and geometry command. The operation of `mvt.decode` (mode `tolerant`), run on every tile
/// of a tile dataset.
public protocol VectorTileDecoding {
    associatedtype Tile
    /// Decodes one tile; throws on a tile it rejects. This is what is timed.
    func decode(_ bytes: [UInt8]) throws -> Tile
    /// Gives every layer, feature, vertex and property of the tile to `digest` (untimed).
    func digest(_ tile: Tile, into digest: inout MVTDigest)
}

/// Keeps a GeoJSON data source up to date: builds it from features with a tile index over
/// a zoom range, then applies diffs (RFC-free: the add/remove/update diff of map SDKs'
/// GeoJSON sources, `GeoJSONSourceDiff`) and returns the tiles each diff touched. The
/// operation of `source.update`; the touched tiles are compared with graticule's as a set.
public protocol SourceUpdating {
    associatedtype Source
    /// Builds the source (untimed).
    func makeSource(_ features: [GeoFeature], indexZooms: ClosedRange<Int>) throws -> Source
    /// Applies one diff; returns every tile (at every indexed zoom) whose content changed.
    func apply(_ diff: GeoJSONSourceDiff, to source: inout Source) throws -> Set<TileID>
}

/// Implementations a user adds beside graticule's, in this process: every one is
/// benchmarked on the same datasets as graticule's (its result checked first) and, where a
/// conformance suite fits, run against that suite. Each is a `candidate` unless added with
/// `role: .peer`: `compare` and `bench --baseline` gate candidates as they gate graticule.
///
/// ```swift
/// var extra = Implementations()
/// try extra.add(geoJSONParser: MyParser(), name: "my.parser")
/// GraticuleTool.main(adding: extra)
/// ```
public struct Implementations {
    /// Why a registration is refused.
    public enum RegistrationError: Error, Equatable, CustomStringConvertible {
        case duplicateName(String)
        case emptyName
        public var description: String {
            switch self {
            case .duplicateName(let n): return "two implementations are called '\(n)'; each needs a name of its own"
            case .emptyName: return "an implementation needs a name"
            }
        }
    }

    struct Entry {
        var name: String
        /// `candidate` (gated by default) unless registered as a `peer`.
        var role: MetricResult.Role = .candidate
        var register: (inout BenchmarkSuite, [Dataset]) -> Void
        /// Accepts or rejects GeoJSON input (for conformance suites), when the entry is a parser.
        var parse: (([UInt8]) throws -> Void)?
        /// Accepts or rejects a vector tile (for conformance suites), when the entry is a decoder.
        var decode: (([UInt8]) throws -> Void)? = nil
        /// A tile in the canonical text form of the `mvt-fixtures` suite (its output is
        /// compared, not only its verdict), when the entry gives one.
        var canonicalTile: (([UInt8]) throws -> String)? = nil
    }

    private(set) var entries: [Entry] = []

    public init() {}

    /// The names registered, in order.
    public var names: [String] { entries.map(\.name) }

    private mutating func add(_ entry: Entry, role: MetricResult.Role) throws(RegistrationError) {
        var entry = entry
        entry.role = role == .peer ? .peer : .candidate
        guard !entry.name.isEmpty else { throw .emptyName }
        // graticule's own implementations are always there.
        guard !names.contains(entry.name), entry.name != "graticule" else { throw .duplicateName(entry.name) }
        entries.append(entry)
    }

    /// Adds a GeoJSON parser, benchmarked as `geojson.parse` (mode `whole`) on every GeoJSON
    /// dataset and run against the GeoJSON conformance suites (judged on its verdicts).
    public mutating func add<P: GeoJSONParsing>(geoJSONParser parser: P, name: String, role: MetricResult.Role = .candidate) throws(RegistrationError) {
        try add(Entry(name: name, register: { suite, datasets in
            GeoJSONBenchmarks.registerParser(parser, name: name, in: &suite, datasets: datasets)
        }, parse: { bytes in _ = try parser.parse(bytes) }), role: role)
    }

    /// Adds a geometry cover, benchmarked as `tilecover.polygon`, `tilecover.lines` and
    /// `tilecover.points` on the datasets and zooms graticule's cover runs on.
    public mutating func add<C: TileCovering>(tileCover: C, name: String, role: MetricResult.Role = .candidate) throws(RegistrationError) {
        try add(Entry(name: name, register: { suite, datasets in
            TileCoverBenchmarks.registerCover(tileCover, name: name, in: &suite, datasets: datasets)
        }, parse: nil), role: role)
    }

    /// Adds a camera cover, benchmarked as `tilecover.camera`.
    public mutating func add<C: CameraCovering>(cameraCover: C, name: String, role: MetricResult.Role = .candidate) throws(RegistrationError) {
        try add(Entry(name: name, register: { suite, datasets in
            TileCoverBenchmarks.registerCameraCover(cameraCover, name: name, in: &suite, datasets: datasets)
        }, parse: nil), role: role)
    }

    /// Adds a vector tile decoder, benchmarked as `mvt.decode` (mode `tolerant`) on every
    /// tile dataset and run against the `mvt-fixtures` suite (judged on its verdicts).
    public mutating func add<D: VectorTileDecoding>(tileDecoder: D, name: String, role: MetricResult.Role = .candidate) throws(RegistrationError) {
        try add(Entry(name: name, register: { suite, datasets in
            MVTBenchmarks.registerDecoder(tileDecoder, name: name, in: &suite, datasets: datasets)
        }, parse: nil, decode: { bytes in _ = try tileDecoder.decode(bytes) }), role: role)
    }

    /// Adds a data source, benchmarked as `source.update` on the generated point sources.
    public mutating func add<U: SourceUpdating>(sourceUpdater: U, name: String, role: MetricResult.Role = .candidate) throws(RegistrationError) {
        try add(Entry(name: name, register: { suite, datasets in
            SourceDiffBenchmarks.registerUpdater(sourceUpdater, name: name, in: &suite, datasets: datasets)
        }, parse: nil), role: role)
    }

    /// Adds a peer the package itself ships outside the embeddable library (the `graticule`
    /// executable adds swift-protobuf this way): its benchmark cases, registered as
    /// `register` adds them, and its canonical form of a tile for the `mvt-fixtures` suite.
    package mutating func add(peer name: String, register: @escaping (inout BenchmarkSuite, [Dataset]) -> Void,
                              canonicalTile: @escaping ([UInt8]) throws -> String) throws(RegistrationError) {
        try add(Entry(name: name, register: register, parse: nil, canonicalTile: canonicalTile), role: .peer)
    }

    /// Adds every registered implementation's cases to a suite.
    public func register(in suite: inout BenchmarkSuite, datasets: [Dataset]) {
        for e in entries {
            suite.registeringRole = e.role
            e.register(&suite, datasets)
        }
        suite.registeringRole = nil
    }

    /// The registered vector tile decoders as accept/reject functions, by name.
    public var tileDecoders: [(name: String, decode: ([UInt8]) throws -> Void)] {
        entries.compactMap { e in e.decode.map { (e.name, $0) } }
    }

    /// The registered tile decoders whose canonical form of a tile is compared in the
    /// `mvt-fixtures` suite, by name.
    package var tileCanonicalizers: [(name: String, canonical: ([UInt8]) throws -> String)] {
        entries.compactMap { e in e.canonicalTile.map { (e.name, $0) } }
    }

    /// The registered GeoJSON parsers as accept/reject functions, by name.
    public var geoJSONParsers: [(name: String, parse: ([UInt8]) throws -> Void)] {
        entries.compactMap { e in e.parse.map { (e.name, $0) } }
    }
}
