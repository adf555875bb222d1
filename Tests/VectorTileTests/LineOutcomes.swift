// The comparison of the validator's line-pair check with decoding the pairs, shared by the
// tests (DecoderDifferentialTests) and the tile fuzzer: Tests/Fuzz/run.sh compiles this file
// into the fuzz target too, so it imports nothing from XCTest.
@testable import VectorTile

/// How a feature's geometry ends when read with the line-pair check and when every pair is
/// decoded.
///
/// A handler that ignores line points, as the validator's does, has a LINESTRING's LineTo
/// pairs only checked (`_checkLinePairs`), eight bytes at a time, and what that check does
/// not take decoded. It must end in exactly the error (kind and offset) that decoding every
/// pair ends in, or in none, and give the same parts.
enum LineOutcomes {
    /// Ignores line points (what `_SkippedLinePoints` asks of a handler); counts parts.
    struct IgnoringLines: GeometryHandler {
        var parts = 0
        var ends = 0
        mutating func lineBegin() { parts += 1 }
        mutating func lineEnd() { ends += 1 }
    }

    struct CountingLines: GeometryHandler {
        var parts = 0
        var ends = 0
        var points = 0
        mutating func lineBegin() { parts += 1 }
        mutating func linePoint(x: Int64, y: Int64) { points += 1 }
        mutating func lineEnd() { ends += 1 }
    }

    /// The feature's geometry read with the line-pair check (into an `IgnoringLines`) and
    /// with every pair decoded (into a `CountingLines`): how each ends.
    static func of(_ f: Feature, _ mode: GeometryMode)
        -> (checked: IgnoringLines, checkedError: MVTError?, decoded: CountingLines, decodedError: MVTError?)
    {
        var checked = IgnoringLines(), decoded = CountingLines()
        let checkedError = error { () throws(MVTError) in
            try f._decodeCommands(into: &checked, mode: mode, linePoints: _SkippedLinePoints.self)
        }
        let decodedError = error { () throws(MVTError) in try f._decodeCommands(into: &decoded, mode: mode) }
        return (checked, checkedError, decoded, decodedError)
    }

    /// The error `body` throws, or nil.
    static func error(_ body: () throws(MVTError) -> Void) -> MVTError? {
        do throws(MVTError) { try body() } catch { return error }
        return nil
    }

    /// The feature's geometry read for a handler that ignores every call (`_CheckedOnly`,
    /// the validator's choice without warnings: line pairs, and the pairs of a polygon's
    /// rings after the first, only checked) and with every pair decoded: the error each
    /// ends in, which must be the same.
    static func checkedOnly(_ f: Feature, _ mode: GeometryMode) -> (checkedError: MVTError?, decodedError: MVTError?) {
        struct Ignoring: GeometryHandler {}
        var checked = Ignoring(), decoded = CountingLines()
        return (error { () throws(MVTError) in try f._decodeCommands(into: &checked, mode: mode, linePoints: _CheckedOnly.self) },
                error { () throws(MVTError) in try f._decodeCommands(into: &decoded, mode: mode) })
    }
}
