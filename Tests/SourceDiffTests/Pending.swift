import XCTest
final class SourceDiffPendingTests: XCTestCase {}
