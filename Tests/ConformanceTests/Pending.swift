import XCTest
final class ConformancePendingTests: XCTestCase {}
