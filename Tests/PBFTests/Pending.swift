import XCTest
final class PBFPendingTests: XCTestCase {}
