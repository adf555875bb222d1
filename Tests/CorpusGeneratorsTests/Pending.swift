import XCTest
final class CorpusGeneratorsPendingTests: XCTestCase {}
