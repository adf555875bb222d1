import GraticuleSupport

/// A named input for benchmarks: its bytes and how many items (features, values, ...) they hold.
///
/// Datasets are materialised lazily, so a run that filters down to one benchmark generates
/// or reads only the data that benchmark needs. The bytes are kept for the whole run.
public final class Dataset: @unchecked Sendable {
    /// Stable name, written to the `dataset` column (e.g. `generated/points-10k`).
    public let name: String
    /// What the bytes are (`geojson`, `pbf-varints`, ...); benchmarks pick datasets by kind.
    public let kind: String
    private let loader: () throws -> (bytes: [UInt8], items: Int)
    private var loaded: (bytes: [UInt8], items: Int)?
    private var filePath: String?

    /// - Parameters:
    ///   - name: the name written to reports.
    ///   - kind: the content type benchmarks select on.
    ///   - load: produces the bytes and the item count; called at most once.
    public init(name: String, kind: String, load: @escaping () throws -> (bytes: [UInt8], items: Int)) {
        self.name = name
        self.kind = kind
        self.loader = load
    }

    /// A dataset read from a file; `items` counts what the file holds.
    public convenience init(name: String, kind: String, path: String, items: @escaping ([UInt8]) -> Int) {
        self.init(name: name, kind: kind) {
            let bytes = try FileIO.readAll(path)
            return (bytes, items(bytes))
        }
        self.filePath = path
    }

    /// The dataset's bytes (loads them on first use).
    public func bytes() throws -> [UInt8] { try materialise().bytes }
    /// How many items the dataset holds (loads it on first use).
    public func items() throws -> Int { try materialise().items }

    /// A file holding the bytes, for external implementations; written on first use.
    public func path(in directory: String) throws -> String {
        if let filePath { return filePath }
        let safe = name.map { $0.isLetter || $0.isNumber || $0 == "-" ? $0 : "_" }
        let path = directory + "/" + String(safe) + "." + kind
        try FileIO.writeAll(path, try bytes())
        filePath = path
        return path
    }

    private func materialise() throws -> (bytes: [UInt8], items: Int) {
        if let loaded { return loaded }
        let value = try loader()
        loaded = value
        return value
    }
}
