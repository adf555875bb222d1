import BenchKit

/// `baseline.memscan`: reads every byte of the dataset and sums them. Nothing that parses
/// the same bytes can be faster, so its throughput is the ceiling printed beside every
/// other throughput figure.
enum BaselineBenchmarks {
    static func register(in suite: inout BenchmarkSuite, datasets: [Dataset]) {
        // Camera views are a few bytes of parameters, not data to scan.
        for d in datasets where d.kind != "camera" {
            suite.add("baseline.memscan", implementation: "graticule", dataset: d) { d in
                let bytes = try d.bytes()
                return Workload { n in
                    for _ in 0..<n {
                        bytes.withUnsafeBytes { raw in
                            // Eight independent accumulators over 8-byte words keep the adds
                            // from serialising on one register.
                            var acc: (UInt64, UInt64, UInt64, UInt64) = (0, 0, 0, 0)
                            let words = raw.count / 8
                            var i = 0
                            while i + 4 <= words {
                                // Safe: (i + 3) * 8 + 8 <= words * 8 <= raw.count.
                                acc.0 &+= raw.loadUnaligned(fromByteOffset: i * 8, as: UInt64.self)
                                acc.1 &+= raw.loadUnaligned(fromByteOffset: i * 8 + 8, as: UInt64.self)
                                acc.2 &+= raw.loadUnaligned(fromByteOffset: i * 8 + 16, as: UInt64.self)
                                acc.3 &+= raw.loadUnaligned(fromByteOffset: i * 8 + 24, as: UInt64.self)
                                i += 4
                            }
                            var tail: UInt64 = 0
                            var j = i * 8
                            while j < raw.count { tail &+= UInt64(raw[j]); j += 1 }
                            blackHole(acc.0 &+ acc.1 &+ acc.2 &+ acc.3 &+ tail)
                        }
                    }
                }
            }
        }
    }
}
