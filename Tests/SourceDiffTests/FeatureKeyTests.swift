import XCTest
import SourceDiff

final class FeatureKeyTests: XCTestCase {
    /// RFC 7946 §3.2: an id is a string or a number; "1" and 1 are different features.
    func testStringAndNumberIdsStayDistinct() {
        XCTAssertNotEqual(FeatureKey.string("1"), FeatureKey(number: 1))
        XCTAssertEqual(Set([FeatureKey.string("1"), FeatureKey(number: 1)]).count, 2)
    }

    func testSameJSONNumberSameKey() {
        XCTAssertEqual(FeatureKey(number: 1), FeatureKey(number: 1.0))
        XCTAssertEqual(FeatureKey(number: 0), FeatureKey(number: -0.0))
        XCTAssertEqual(FeatureKey(number: 0), .integer(0))
        XCTAssertEqual(FeatureKey(number: 1.5), .number(1.5))
        XCTAssertEqual(FeatureKey(number: 9_007_199_254_740_992), .integer(9_007_199_254_740_992))
        XCTAssertEqual(FeatureKey(number: 1e300), .number(1e300), "beyond Int64 stays a number")
        XCTAssertEqual(FeatureKey.string("a").description, "\"a\"")
    }
}
