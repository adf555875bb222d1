import GraticuleSupport
import XCTest
@testable import BenchKit

final class StatisticsTests: XCTestCase {
    // Expected values from NumPy (percentile, linear method) and SciPy (mannwhitneyu,
    // asymptotic, continuity correction), computed outside this project.

    func testQuantilesMatchLinearInterpolation() {
        XCTAssertEqual(Statistics.quantile(sorted: [1, 2, 3, 4], 0.25), 1.75, accuracy: 1e-12)
        XCTAssertEqual(Statistics.quantile(sorted: [1, 2, 3, 4], 0.90), 3.7, accuracy: 1e-12)
        XCTAssertEqual(Statistics.quantile(sorted: [1, 2, 3, 4], 0.5), 2.5)
        XCTAssertEqual(Statistics.quantile(sorted: [7], 0.99), 7)
        XCTAssertEqual(Statistics.median([5, 1, 3]), 3)
    }

    func testSummaryOfKnownSample() {
        let s = Statistics.summarize([2, 4, 4, 4, 5, 5, 7, 9])
        XCTAssertEqual(s.count, 8)
        XCTAssertEqual(s.min, 2)
        XCTAssertEqual(s.max, 9)
        XCTAssertEqual(s.mean, 5)
        XCTAssertEqual(s.median, 4.5)
        XCTAssertEqual(s.stddev, 2.138089935299395, accuracy: 1e-12)
        XCTAssertEqual(s.cv, 2.138089935299395 / 5, accuracy: 1e-12)
        XCTAssertLessThanOrEqual(s.ciLow, s.median)
        XCTAssertGreaterThanOrEqual(s.ciHigh, s.median)
        XCTAssertGreaterThanOrEqual(s.ciLow, 2)
        XCTAssertLessThanOrEqual(s.ciHigh, 9)
    }

    func testSummaryIsDeterministic() {
        var rng = SplitMix64(seed: 42)
        let xs = (0..<50).map { _ in Double(rng.next() % 1000) }
        XCTAssertEqual(Statistics.summarize(xs), Statistics.summarize(xs))
    }

    func testBootstrapIntervalCoversTrueMedianMostOfTheTime() {
        // Samples from a uniform(0, 1) distribution, whose median is 0.5.
        var rng = SplitMix64(seed: 7)
        var covered = 0
        for trial in 0..<100 {
            let xs = (0..<40).map { _ in Double(rng.next() >> 11) * 0x1.0p-53 }
            let (lo, hi) = Statistics.bootstrapMedianCI(xs, resamples: 400, seed: UInt64(trial))
            if lo <= 0.5 && 0.5 <= hi { covered += 1 }
        }
        XCTAssertGreaterThanOrEqual(covered, 85, "a 95% interval should cover the median in ~95 of 100 trials")
    }

    func testMannWhitneyMatchesSciPy() {
        let a = (1...10).map(Double.init), b = (6...15).map(Double.init)
        XCTAssertEqual(Statistics.mannWhitneyP(a, b), 0.005075392315273923, accuracy: 1e-9)
        XCTAssertEqual(Statistics.mannWhitneyP(b, a), 0.005075392315273923, accuracy: 1e-9)
        // With ties.
        XCTAssertEqual(Statistics.mannWhitneyP([1, 2, 2, 3, 3, 3, 4], [3, 4, 4, 5, 5, 6]),
                       0.012999854364387305, accuracy: 1e-9)
    }

    func testMannWhitneyDegenerateInputs() {
        XCTAssertEqual(Statistics.mannWhitneyP([], [1, 2]), 1)
        XCTAssertEqual(Statistics.mannWhitneyP([3, 3, 3], [3, 3]), 1)
        XCTAssertEqual(Statistics.mannWhitneyP([1, 2, 3], [1, 2, 3]), 1, accuracy: 1e-12)
    }

    func testRatioOfMedians() {
        let q = Statistics.ratioOfMedians([20, 20, 20, 20], [10, 10, 10, 10])!
        XCTAssertEqual(q.ratio, 2)
        XCTAssertEqual(q.low, 2)
        XCTAssertEqual(q.high, 2)
        XCTAssertNil(Statistics.ratioOfMedians([1], [0]))
        let noisy = Statistics.ratioOfMedians([18, 20, 22, 19, 21], [9, 10, 11, 10, 10])!
        XCTAssertEqual(noisy.ratio, 2)
        XCTAssertLessThan(noisy.low, 2.0001)
        XCTAssertGreaterThan(noisy.high, 1.9999)
    }
}
