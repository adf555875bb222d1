import PBF

/// Directories (PMTiles v3 §4): entries delta-coded by tile id and stored as columns of varints.
extension PMTiles {
    public static func encodeDirectory(_ entries: [Entry]) -> [UInt8] {
        var w = PBFWriter()
        w.writeVarint(UInt64(entries.count))
        var last: UInt64 = 0
        for e in entries { w.writeVarint(e.tileID - last); last = e.tileID }
        for e in entries { w.writeVarint(e.runLength) }
        for e in entries { w.writeVarint(e.length) }
        for (i, e) in entries.enumerated() {
            if i > 0, e.offset == entries[i - 1].offset &+ entries[i - 1].length { w.writeVarint(0) }
            else { w.writeVarint(e.offset + 1) }
        }
        return w.bytes
    }

    /// Decodes a directory; `base` is its byte offset in the archive, for error messages.
    public static func decodeDirectory(_ bytes: [UInt8], base: Int = 0) throws(Error) -> [Entry] {
        let entries: [Entry]
        do {
            entries = try bytes.withUnsafeBytes { raw throws(PBFError) -> [Entry] in
                var r = PBFReader(bytes: raw)
                let n = try r.readVarint()
                if n == 0 { return [] }
                // Each entry takes at least four bytes: a count beyond that is a lie.
                guard n <= UInt64(raw.count) else { throw PBFError.truncated(offset: 0) }
                var entries = [Entry](repeating: Entry(tileID: 0, offset: 0, length: 0, runLength: 0), count: Int(n))
                var id: UInt64 = 0
                for i in 0..<Int(n) { id = id &+ (try r.readVarint()); entries[i].tileID = id }
                for i in 0..<Int(n) { entries[i].runLength = try r.readVarint() }
                for i in 0..<Int(n) { entries[i].length = try r.readVarint() }
                for i in 0..<Int(n) {
                    let v = try r.readVarint()
                    if v == 0 {
                        guard i > 0 else { throw PBFError.truncated(offset: r.offset) }
                        let (next, over) = entries[i - 1].offset.addingReportingOverflow(entries[i - 1].length)
                        guard !over else { throw PBFError.truncated(offset: r.offset) }
                        entries[i].offset = next
                    } else {
                        entries[i].offset = v - 1
                    }
                }
                return entries
            }
        } catch {
            throw .malformedDirectory("\(error)", offset: base)
        }
        guard !entries.isEmpty else { throw .malformedDirectory("the directory has no entries (it must have at least one)", offset: base, rule: "PM12") }
        return entries
    }
}
