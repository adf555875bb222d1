/// HTML text and the one chart form the package's pages share.
public enum HTML {
    /// `s` with `<`, `>`, `&` and `"` escaped, safe in element text and quoted attributes.
    /// With `xml`, for XML 1.0 (JUnit reports): `'` escaped too, and the characters XML
    /// cannot hold (C0 controls other than tab, LF and CR; U+FFFE, U+FFFF) written as `?`.
    public static func escape(_ s: String, xml: Bool = false) -> String {
        var out = ""
        out.reserveCapacity(s.utf8.count)
        for u in s.unicodeScalars {
            switch u {
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "&": out += "&amp;"
            case "\"": out += "&quot;"
            case "'" where xml: out += "&apos;"
            case "\t", "\n", "\r": out.unicodeScalars.append(u)
            default:
                if xml && (u.value < 0x20 || u.value == 0xFFFE || u.value == 0xFFFF) { out += "?" } else { out.unicodeScalars.append(u) }
            }
        }
        return out
    }

    /// One bar of `barChart`: its value and the interval drawn as a whisker (`low` = `high`
    /// = `value` for none).
    public struct Bar: Sendable {
        public var label: String
        public var value: Double
        public var low: Double
        public var high: Double
        public init(label: String, value: Double, low: Double, high: Double) {
            self.label = label
            self.value = value
            self.low = low
            self.high = high
        }
    }

    /// Horizontal bars with interval whiskers as inline SVG. The axis follows the bars;
    /// `ceiling` is drawn as a dashed line when it is within twice the largest bar (or the
    /// unit is `×`), and otherwise stated in a caption below the chart. `format` writes the
    /// figures.
    public static func barChart(_ bars: [Bar], unit: String, ceiling: Double? = nil,
                                format: (Double) -> String) -> String {
        // Wide enough for the longest label (about 7 px a character), never cut.
        let longest = Double(bars.map(\.label.count).max() ?? 0)
        let labelWidth = max(260.0, longest * 7 + 12), chartWidth = 520.0, rowHeight = 24.0
        let largest = max(bars.map(\.high).max() ?? 1, 1e-12)
        let drawCeiling = ceiling.map { unit == "×" || $0 <= largest * 2 } ?? false
        let maxValue = max(largest, drawCeiling ? ceiling! : 0) * 1.15
        let height = Double(bars.count) * rowHeight + (drawCeiling ? 22 : 8)
        func x(_ v: Double) -> Double { labelWidth + max(0, v) / maxValue * chartWidth }
        var svg = "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"\(Int(labelWidth + chartWidth + 200))\" height=\"\(Int(height))\" role=\"img\">\n"
        for (i, b) in bars.enumerated() {
            let y = Double(i) * rowHeight + 4
            svg += "<text x=\"\(Int(labelWidth - 6))\" y=\"\(y + 15)\" text-anchor=\"end\">\(escape(b.label))</text>"
            svg += "<rect x=\"\(labelWidth)\" y=\"\(y + 3)\" width=\"\(x(b.value) - labelWidth)\" height=\"\(rowHeight - 8)\" fill=\"#4a7fb5\"/>"
            svg += "<line x1=\"\(x(b.low))\" x2=\"\(x(b.high))\" y1=\"\(y + 11)\" y2=\"\(y + 11)\" stroke=\"#222\"/>"
            svg += "<text x=\"\(x(max(b.value, b.high)) + 6)\" y=\"\(y + 15)\">\(escape(format(b.value))) \(escape(unit))</text>\n"
        }
        if let c = ceiling, drawCeiling {
            svg += "<line x1=\"\(x(c))\" x2=\"\(x(c))\" y1=\"0\" y2=\"\(height - 16)\" stroke=\"#c33\" stroke-dasharray=\"4 3\"/>"
            svg += "<text x=\"\(x(c) - 3)\" y=\"\(height - 3)\" text-anchor=\"end\" fill=\"#c33\">\(unit == "×" ? "reference" : "memscan ceiling \(escape(format(c)))")</text>\n"
        }
        svg += "</svg>\n"
        if let c = ceiling, !drawCeiling, unit != "×" {
            svg += "<p style=\"color:#c33;margin:0 0 0 \(Int(labelWidth))px;font-size:12px\">memscan ceiling \(escape(format(c))) \(escape(unit)), "
                + "\(escape(String((c / largest * 100).rounded() / 100)))× the fastest bar (off scale)</p>\n"
        }
        return svg
    }
}
