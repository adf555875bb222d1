// libFuzzer entry point for the vector tile decoder and validator (built by run.sh, not
// by SwiftPM). Each input is decoded as a tile: the validator, then a tolerant full decode
// of every layer, feature, tag and geometry. Any crash, hang or sanitizer report is a bug.
import PBF
import VectorTile

struct Sink: GeometryHandler {
    var n: Int64 = 0
    mutating func point(x: Int64, y: Int64) { n &+= x ^ y }
    mutating func linePoint(x: Int64, y: Int64) { n &+= x ^ y }
    mutating func ringPoint(x: Int64, y: Int64) { n &+= x ^ y }
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOne(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = UnsafeRawBufferPointer(start: data, count: size)
    let tile = VectorTile(bytes: bytes)
    for f in MVTValidator.validate(tile) {
        precondition(f.error.offset <= size, "finding offset outside the input")
    }
    if let layers = try? tile.layers() {
        for layer in layers {
            _ = layer.values.map { $0.stringValue }
            layer.forEachFeature { (f: Feature) in
                var sink = Sink()
                try? f.forEachTag { _, _ in }
                try? f.decodeGeometry(into: &sink, mode: .tolerant)
                try? f.decodeGeometry(into: &sink, mode: .strict)
            }
        }
    }
    return 0
}
