import XCTest
final class GeoJSONPendingTests: XCTestCase {}
