import Foundation
import GeoJSON
import GraticuleTestSupport
import JSON
import XCTest

/// Under the structural skip contract (`GeoJSONReadOptions.SkipContract.structural`) a
/// reader reads every valid text as the validating reader does.
final class SkipContractReaderTests: XCTestCase {
    /// Readers: under the structural contract every text the validating reader reads is
    /// read to the same document (corpora and edited random collections); a skipped
    /// property with a bad number is read under it and refused, located, under validation.
    func testReadersAgreeOnValidTexts() throws {
        var structuralOptions = GeoJSONReadOptions(skipProperties: true)
        structuralOptions.skipContract = .structural
        let validatedOptions = GeoJSONReadOptions(skipProperties: true)
        var files = 0
        let root = TestPaths.shared("")
        if let walker = FileManager.default.enumerator(atPath: root) {
            while let name = walker.nextObject() as? String {
                guard name.hasSuffix(".json") || name.hasSuffix(".geojson"),
                      let data = FileManager.default.contents(atPath: root + "/" + name) else { continue }
                let bytes = [UInt8](data)
                guard let v = try? GeoJSONReader.read(bytes, options: validatedOptions) else { continue }
                files += 1
                XCTAssertTrue(try GeoJSONReader.read(bytes, options: structuralOptions) == v, name)
                let chunked = try GeoJSONReader.read(from: ChunkedByteSource(bytes, chunkSize: 4096), chunkSize: 4096,
                                                     options: structuralOptions)
                XCTAssertTrue(chunked == v, name + " in 4 KiB reads")
            }
        }
        let text = #"{"type":"FeatureCollection","features":[{"type":"Feature","geometry":null,"properties":{"a":01}}]}"#
        XCTAssertNoThrow(try GeoJSONReader.read(Array(text.utf8), options: structuralOptions))
        XCTAssertThrowsError(try GeoJSONReader.read(Array(text.utf8), options: validatedOptions)) { e in
            // "01": the number is "0" (byte 92), and the "1" after it (byte 93) is out of place.
            XCTAssertEqual((e as? GeoJSONError)?.location.offset, 93)
        }
        if files == 0 { throw XCTSkip("no shared corpora") }
    }
}
