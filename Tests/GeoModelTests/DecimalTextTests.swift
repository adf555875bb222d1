import GeoModel
import XCTest

/// Decimal numbers in text: what `DecimalText.parse` accepts is a decimal, and its value is
/// `Double(_:)`'s; what `Double(_:)` accepts beyond decimals is refused.
final class DecimalTextTests: XCTestCase {
    func testDecimalsAndTheirValues() {
        for (text, value) in [("0", 0.0), ("-0", -0.0), ("+1", 1), ("12.5", 12.5), ("12.", 12), (".5", 0.5), ("-.25", -0.25),
                              ("1e3", 1000), ("1E-3", 0.001), ("2.5e+2", 250), ("179.999999", 179.999999)] {
            XCTAssertEqual(DecimalText.parse(text)?.bitPattern, value.bitPattern, text)
        }
        XCTAssertEqual(DecimalText.parse("-0")?.sign, .minus)
        XCTAssertEqual(DecimalText.parse("12.5", exponent: false), 12.5)
    }

    func testWhatDoubleAcceptsBeyondDecimalsIsRefused() {
        for text in ["0x10", "0X1P4", "inf", "-Infinity", "nan", "NaN", "+", "-", ".", "", " 1", "1 ", "1.2.3", "1e", "1e+",
                     "e5", "1_000", "١٢", "1e400", "--1"] {
            XCTAssertNil(DecimalText.parse(text), text)
        }
        XCTAssertNil(DecimalText.parse("1e3", exponent: false), "xsd:decimal has no exponent")
        XCTAssertEqual(Double("0x10"), 16, "the reason: Double(_:) reads hexadecimal")
    }
}
