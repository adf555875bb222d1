import XCTest
import Foundation
import GraticuleTestSupport

/// Input must never reach a trap: no `try!` anywhere outside the tests (an error there is
/// a crash with Foundation's message instead of a typed error with a location).
final class NoTrapTests: XCTestCase {
    func testNoTryBangOutsideTests() throws {
        var offenders: [String] = []
        for folder in ["Sources", "Benchmarks/Suites", "corpora/Generators"] {
            let root = TestPaths.repositoryRoot + "/" + folder
            guard let e = FileManager.default.enumerator(atPath: root) else { continue }
            while let f = e.nextObject() as? String {
                guard f.hasSuffix(".swift"), !f.contains(".build/") else { continue }
                let text = try String(contentsOfFile: root + "/" + f, encoding: .utf8)
                for (i, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
                    let code = line.split(separator: "//", maxSplits: 1, omittingEmptySubsequences: false).first ?? ""
                    // `try!` as a keyword, not the end of a name such as `geometry!`.
                    var rest = code[...]
                    while let r = rest.range(of: "try!") {
                        let before = r.lowerBound == code.startIndex ? nil : code[code.index(before: r.lowerBound)]
                        if !(before.map { $0.isLetter || $0.isNumber || $0 == "_" } ?? false) {
                            offenders.append("\(folder)/\(f):\(i + 1)")
                            break
                        }
                        rest = code[r.upperBound...]
                    }
                }
            }
        }
        XCTAssertEqual(offenders, [], "try! outside the tests")
    }
}
