// libFuzzer entry point for the vector tile decoder and validator (built by run.sh, not
// by SwiftPM). Each input is decoded as a tile: the validator, then a tolerant full decode
// of every layer, feature, tag and geometry. Any crash, hang or sanitizer report is a bug,
// and so is any difference between the validator's checks of tags and line pairs and
// reading them.
import PBF
@testable import VectorTile

struct Sink: GeometryHandler {
    var n: Int64 = 0
    mutating func point(x: Int64, y: Int64) { n &+= x ^ y }
    mutating func linePoint(x: Int64, y: Int64) { n &+= x ^ y }
    mutating func ringPoint(x: Int64, y: Int64) { n &+= x ^ y }
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOne(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = UnsafeRawBufferPointer(start: data, count: size)
    checkPBFKernels(bytes)
    let tile = VectorTile(bytes: bytes)
    for f in MVTValidator.validate(tile) {
        precondition(f.error.offset <= size, "finding offset outside the input")
    }
    // The streaming walk, with every other layer kept past its call, must see what
    // `layers()` sees and stop with the same error.
    var walked: [(name: Int, keys: Int, values: Int, features: Int)] = [], kept: [Layer] = []
    var walkError: MVTError?
    do throws(MVTError) {
        try tile.forEachLayer { l in
            walked.append((l.nameBytes.count, l.keys.count, l.values.count, l.featureCount))
            if walked.count % 2 == 0 { kept.append(l) }
        }
    } catch {
        walkError = error
    }
    var listed: [Layer] = [], listError: MVTError?
    do throws(MVTError) { listed = try tile.layers() } catch { listError = error }
    precondition(walkError == listError, "forEachLayer and layers() stop differently")
    if listError == nil {
        precondition(walked.count == listed.count, "forEachLayer and layers() see different layers")
        for (w, l) in zip(walked, listed) {
            precondition(w == (l.nameBytes.count, l.keys.count, l.values.count, l.featureCount),
                         "a layer read with reused storage differs")
        }
        for (i, k) in kept.enumerated() {
            let l = listed[2 * i + 1]
            precondition(k.keys.elementsEqual(l.keys, by: { $0.elementsEqual($1) }) && k.values == l.values,
                         "a kept layer's tables changed")
        }
        for layer in listed {
            _ = layer.values.map { $0.stringValue }
            layer.forEachFeature { (f: Feature) in
                var sink = Sink()
                // The validator's tag check (8 or 16 bytes at a time) must end as reading
                // the pairs does.
                var tagError: MVTError?, checkError: MVTError?
                do throws(MVTError) { try f.forEachTag { _, _ in } } catch { tagError = error }
                do throws(MVTError) { try f._checkTags { _, _ in } } catch { checkError = error }
                precondition(tagError == checkError, "the validator's tag check and forEachTag end differently")
                try? f.decodeGeometry(into: &sink, mode: .tolerant)
                try? f.decodeGeometry(into: &sink, mode: .strict)
                // The validator's check of line pairs without decoding them must end as
                // decoding them does: the same error at the same offset, or none.
                // (`LineOutcomes`, Tests/VectorTileTests/LineOutcomes.swift, as in the tests.)
                for mode in [GeometryMode.strict, .tolerant] {
                    let outcomes = LineOutcomes.of(f, mode)
                    precondition(outcomes.checkedError == outcomes.decodedError,
                                 "the line-pair check and the decoder end differently")
                    // Likewise the check of a polygon's later rings (`_CheckedOnly`).
                    let rings = LineOutcomes.checkedOnly(f, mode)
                    precondition(rings.checkedError == rings.decodedError,
                                 "the later rings' check and the decoder end differently")
                }
            }
        }
    }
    return 0
}
