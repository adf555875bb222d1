import XCTest
@testable import BenchKit
#if canImport(Glibc)
import Glibc
#endif

final class AllocationCounterTests: XCTestCase {
    func testJemallocIsTheAllocator() {
        XCTAssertTrue(_Jemalloc.isActive, "tests must link jemalloc (libjemalloc-dev)")
        XCTAssertTrue(RunEnvironment.allocator.hasPrefix("jemalloc 5."))
    }

    /// The counters count: 1000 blocks of 1000 bytes show up as at least 1000 allocations
    /// and 1,000,000 bytes.
    func testCountersSeeKnownAllocations() throws {
        let before = try XCTUnwrap(_Jemalloc.snapshot())
        var blocks: [UnsafeMutableRawPointer?] = []
        blocks.reserveCapacity(1000)
        let mid = try XCTUnwrap(_Jemalloc.snapshot())
        for _ in 0..<1000 { blocks.append(malloc(1000)) }
        let after = try XCTUnwrap(_Jemalloc.snapshot())
        for b in blocks { free(b) }
        let freed = try XCTUnwrap(_Jemalloc.snapshot())
        XCTAssertGreaterThanOrEqual(after.allocationCount - mid.allocationCount, 1000)
        XCTAssertLessThan(after.allocationCount - mid.allocationCount, 1010)
        XCTAssertGreaterThanOrEqual(after.allocatedBytes - mid.allocatedBytes, 1_000_000)
        XCTAssertGreaterThanOrEqual(freed.deallocatedBytes - after.deallocatedBytes, 1_000_000)
        XCTAssertGreaterThanOrEqual(mid.allocationCount, before.allocationCount)
    }

    func testSnapshotItselfAllocatesNothing() throws {
        let a = try XCTUnwrap(_Jemalloc.snapshot())
        let b = try XCTUnwrap(_Jemalloc.snapshot())
        XCTAssertEqual(b.allocationCount, a.allocationCount)
        XCTAssertEqual(b.allocatedBytes, a.allocatedBytes)
    }

    /// Through the runner: a workload that allocates one 1 MiB array per operation reports
    /// at least 1 allocation and 1 MiB per operation, and a peak heap of at least 1 MiB
    /// (jemalloc updates the peak every 64 KiB allocated, so a large block is needed).
    func testRunnerReportsAllocationsOfAWorkload() throws {
        let d = Dataset(name: "tiny", kind: "test") { ([1, 2, 3], 3) }
        var suite = BenchmarkSuite(name: "t")
        suite.add("alloc.op", implementation: "graticule", dataset: d) { _ in
            Workload { n in
                for i in 0..<n {
                    let a = [UInt8](repeating: UInt8(truncatingIfNeeded: i), count: 1 << 20)
                    blackHole(a)
                }
            }
        }
        var cfg = RunConfiguration.quick
        cfg.minSamples = 3
        cfg.minSeconds = 0.01
        let results = Runner(configuration: cfg).run(suite.cases)
        func median(_ m: Metric) -> Double? { results.first { $0.metric == m.rawValue }?.summary?.median }
        XCTAssertGreaterThanOrEqual(try XCTUnwrap(median(.allocCount)), 1)
        XCTAssertLessThan(try XCTUnwrap(median(.allocCount)), 1.5)
        XCTAssertGreaterThanOrEqual(try XCTUnwrap(median(.allocBytes)), 1_048_576)
        XCTAssertGreaterThanOrEqual(try XCTUnwrap(median(.peakHeapBytes)), 1_048_576)
        XCTAssertGreaterThan(try XCTUnwrap(median(.peakResidentBytes)), 0)
    }
}
