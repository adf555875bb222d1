import XCTest
final class TileCoverPendingTests: XCTestCase {}
