import XCTest
final class GeoModelPendingTests: XCTestCase {}
