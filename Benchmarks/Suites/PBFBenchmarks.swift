import BenchKit
import PBF

/// `pbf.varint.decode`: decode every varint of a packed stream and sum them.
///
/// Implementations: `graticule` (`PBFReader`, one-byte fast path and unchecked 10-byte
/// path), and `swift.simple-loop`, the bounds-checked byte loop most Swift code writes
/// (the peer a user replaces). swift-protobuf's varint reader is internal to its decoder,
/// so it cannot be called on a bare stream.
enum PBFBenchmarks {
    static func register(in suite: inout BenchmarkSuite, datasets: [Dataset]) {
        for d in datasets where d.kind == "pbf-varints" {
            suite.add("pbf.varint.decode", implementation: "graticule", dataset: d, check: { d in
                try d.bytes().withUnsafeBytes { raw in
                    var reader = PBFReader(bytes: raw)
                    var values: [UInt64] = []
                    while !reader.isAtEnd { values.append(try reader.readVarint()) }
                    return ResultDigests.varints(values)
                }
            }) { d in
                let bytes = try d.bytes()
                return Workload { n in
                    for _ in 0..<n {
                        bytes.withUnsafeBytes { raw in
                            var reader = PBFReader(bytes: raw)
                            var sum: UInt64 = 0
                            do {
                                while !reader.isAtEnd { sum &+= try reader.readVarint() }
                            } catch { fatalError("generated dataset is valid: \(error)") }
                            blackHole(sum)
                        }
                    }
                }
            }
            suite.add("pbf.varint.decode", implementation: "swift.simple-loop", dataset: d, check: { d in
                var values: [UInt64] = []
                simpleLoop(try d.bytes()) { values.append($0) }
                return ResultDigests.varints(values)
            }) { d in
                let bytes = try d.bytes()
                return Workload { n in
                    for _ in 0..<n {
                        var sum: UInt64 = 0
                        simpleLoop(bytes) { sum &+= $0 }
                        blackHole(sum)
                    }
                }
            }
        }
    }

    /// The bounds-checked byte loop of `swift.simple-loop`, giving each value to `body`.
    @inline(__always)
    static func simpleLoop(_ bytes: [UInt8], _ body: (UInt64) -> Void) {
        var i = 0
        while i < bytes.count {
            var value: UInt64 = 0
            var shift: UInt64 = 0
            while true {
                guard i < bytes.count, shift < 64 else { fatalError("bad varint") }
                let b = bytes[i]
                i += 1
                value |= UInt64(b & 0x7F) << shift
                if b < 0x80 { break }
                shift += 7
            }
            body(value)
        }
    }
}
