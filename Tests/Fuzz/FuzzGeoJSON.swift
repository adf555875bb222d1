// libFuzzer entry point for the GeoJSON reader (built by run-geojson.sh, not by SwiftPM).
// Each input is read whole, read through chunked sources of two sizes, read with its
// properties skipped (whole: mostly through the C skipper of CJSONSkip; chunked: mostly
// through its scalar fallback) under both skip contracts, read into column batches (with
// and without property values) and compared with the streaming reader, validated, and read as a text sequence. Besides crashes, hangs and sanitizer reports, it fails when a chunked
// read gives a different outcome (document, or error with location and path) than the
// whole-buffer read: chunk boundaries must never matter. The structural kernels
// (CJSONStructural.h) must give the same index and the same skip at every block-step level
// (scalar, SSE2, AVX2 where the CPU has it). The feature fast path must give what the
// validating path alone gives (`@testable`: its switch is not API).
import JSON
import CJSONSkip
@testable import GeoJSON
import GeoModel

func outcome(_ f: () throws -> GeoJSONDocument) -> String {
    do { return "ok \(try f())" } catch { return "error \(error)" }
}

/// `f` with every property value replaced by null (what a batch read without property
/// values keeps: the names).
func namesOnly(_ f: GeoFeature) -> GeoFeature {
    guard let p = f.properties else { return f }
    var f = f
    var names = PropertyList()
    for k in p.keys { names.append(key: k, value: .null) }
    f.properties = names
    return f
}

func featuresOutcome(_ reader: GeoJSONFeatureReader, names: Bool = false) -> String {
    var out = ""
    do {
        while let f = try reader.next() { out += "\(names ? namesOnly(f) : f)\n" }
    } catch {
        out += "error \(error)"
    }
    return out + "skipped \(reader.skipped)"
}

func batchOutcome(_ reader: GeoJSONBatchReader) -> String {
    var out = ""
    var batch = GeoJSONFeatureBatch()
    do {
        while try reader.next(into: &batch) {
            for f in batch.features { out += "\(f)\n" }
        }
    } catch {
        for f in batch.features { out += "\(f)\n" }
        out += "error \(error)"
    }
    return out + "skipped \(reader.skipped)"
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOne(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    let whole = outcome { try GeoJSONReader.read(bytes) }
    let chunk = 1 + (size % 13)
    let chunked = outcome { try GeoJSONReader.read(from: ChunkedByteSource(bytes, chunkSize: chunk), chunkSize: chunk) }
    precondition(whole == chunked, "chunked read differs:\n\(whole)\n\(chunked)")
    // Skipped properties are still validated: skipping them must fail with exactly the
    // whole read's error (location and path), or succeed when it succeeds, in any chunking.
    let skip = GeoJSONReadOptions(skipProperties: true)
    let skipped = outcome { try GeoJSONReader.read(bytes, options: skip) }
    if whole.hasPrefix("error") {
        precondition(skipped == whole, "skipping properties changes the error:\n\(whole)\n\(skipped)")
    } else {
        precondition(skipped.hasPrefix("ok"), "skipping properties fails a valid text:\n\(skipped)")
    }
    let skippedChunked = outcome {
        try GeoJSONReader.read(from: ChunkedByteSource(bytes, chunkSize: chunk), chunkSize: chunk, options: skip)
    }
    precondition(skipped == skippedChunked, "chunked skipping read differs:\n\(skipped)\n\(skippedChunked)")
    // The three readers: the streaming reader's features (and error) equal the column
    // batches', in place and in small reads, under both policies.
    for policy in [GeoJSONFeatureReader.InvalidFeaturePolicy.fail, .skip] {
        let streamed = featuresOutcome(GeoJSONFeatureReader(source: ChunkedByteSource(bytes, chunkSize: chunk), chunkSize: chunk,
                                                            onInvalidFeature: policy))
        let inPlace = batchOutcome(GeoJSONBatchReader(bytes: bytes, onInvalidFeature: policy, batchBytes: 1 + size % 97))
        let inReads = batchOutcome(GeoJSONBatchReader(source: ChunkedByteSource(bytes, chunkSize: chunk), chunkSize: chunk,
                                                      onInvalidFeature: policy, batchBytes: 1 + size % 89))
        precondition(streamed == inPlace, "column batches differ:\n\(streamed)\n\(inPlace)")
        precondition(streamed == inReads, "column batches in reads differ:\n\(streamed)\n\(inReads)")
        // Without property values: the names, and the same outcome otherwise.
        var names = GeoJSONReadOptions()
        names.keepPropertyValues = false
        let streamedNames = featuresOutcome(GeoJSONFeatureReader(source: ChunkedByteSource(bytes, chunkSize: chunk),
                                                                 chunkSize: chunk, onInvalidFeature: policy), names: true)
        let namesInReads = batchOutcome(GeoJSONBatchReader(source: ChunkedByteSource(bytes, chunkSize: chunk), chunkSize: chunk,
                                                           options: names, onInvalidFeature: policy, batchBytes: 1 + size % 83))
        precondition(streamedNames == namesInReads, "batches without values differ:\n\(streamedNames)\n\(namesInReads)")
    }
    // The feature fast path against the validating path alone: the whole read, the
    // streaming reader and the column batches, in small reads, under both policies.
    var slowOptions = GeoJSONReadOptions()
    slowOptions._fastPath = false
    let wholeSlow = outcome { try GeoJSONReader.read(bytes, options: slowOptions) }
    precondition(whole == wholeSlow, "the fast path changes the whole read:\n\(wholeSlow)\n\(whole)")
    for policy in [GeoJSONFeatureReader.InvalidFeaturePolicy.fail, .skip] {
        let fast = featuresOutcome(GeoJSONFeatureReader(source: ChunkedByteSource(bytes, chunkSize: chunk), chunkSize: chunk,
                                                        onInvalidFeature: policy))
        let slow = featuresOutcome(GeoJSONFeatureReader(source: ChunkedByteSource(bytes, chunkSize: chunk), chunkSize: chunk,
                                                        options: slowOptions, onInvalidFeature: policy))
        precondition(fast == slow, "the fast path changes the streaming read:\n\(slow)\n\(fast)")
        let fastBatches = batchOutcome(GeoJSONBatchReader(source: ChunkedByteSource(bytes, chunkSize: chunk), chunkSize: chunk,
                                                          onInvalidFeature: policy, batchBytes: 1 + size % 79))
        let slowBatches = batchOutcome(GeoJSONBatchReader(source: ChunkedByteSource(bytes, chunkSize: chunk), chunkSize: chunk,
                                                          options: slowOptions, onInvalidFeature: policy, batchBytes: 1 + size % 79))
        precondition(fastBatches == slowBatches, "the fast path changes the batches:\n\(slowBatches)\n\(fastBatches)")
    }
    // The structural index and skip agree at every level of block step.
    bytes.withUnsafeBufferPointer { b in
        guard let p = b.baseAddress else { return }
        var outs: [[UInt32]] = []
        var results: [(Int, Int32, Int)] = []
        for level: Int32 in [0, 1, 2] {
            var out = [UInt32](repeating: 0, count: b.count + 1)
            let r = out.withUnsafeMutableBufferPointer { gr_structural_index(p, b.count, $0.baseAddress, $0.count, level) }
            outs.append(r.error == 0 ? Array(out[0..<r.count]) : [])
            results.append((r.count, r.error, r.error_offset))
            if b.count > 0 && (p[0] == UInt8(ascii: "{") || p[0] == UInt8(ascii: "[")) {
                let e = gr_skip_structural(p, 0, b.count, 512, level)
                precondition(e == gr_skip_structural(p, 0, b.count, 512, 0), "skip differs at level \(level)")
            }
        }
        precondition(outs.allSatisfy { $0 == outs[0] } && results.allSatisfy { $0 == results[0] },
                     "the structural index differs between levels: \(results)")
    }
    // Under the structural contract every text read under validation reads the same.
    var structural = skip
    structural.skipContract = .structural
    if skipped.hasPrefix("ok") {
        let s = outcome { try GeoJSONReader.read(bytes, options: structural) }
        precondition(s == skipped, "the structural contract changes a valid read:\n\(skipped)\n\(s)")
    }
    let report = GeoJSONValidator.validate(bytes)
    for f in report.findings { precondition(f.location.offset <= size, "finding outside the input") }
    let seq = GeoJSONSequenceReader(source: ChunkedByteSource(bytes, chunkSize: 5), chunkSize: 5)
    var n = 0
    while (try? seq.next()) != nil, n < 100_000 { n += 1 }
    if let doc = try? GeoJSONReader.read(bytes) {
        let text = GeoJSONWriter.encode(doc)
        let again = try? GeoJSONReader.read(text)
        precondition(again == doc, "write(read(x)) does not read back equal")
    }
    return 0
}
