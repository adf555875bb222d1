import XCTest
final class VectorTilePendingTests: XCTestCase {}
