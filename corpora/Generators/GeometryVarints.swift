import GraticuleSupport
import PBF

/// A packed varint stream shaped like vector-tile geometry (MVT 2.1 §4.3): command
/// integers followed by zigzag-encoded coordinate deltas, for lines of 2–60 vertices
/// wandering over a 4096 extent. Most values take 1–2 bytes, as in real tiles, with a few
/// long jumps.
public enum GeometryVarints {
    /// - Returns: the bytes and the number of varints they hold.
    public static func generate(varints target: Int, seed: UInt64 = 2) -> (bytes: [UInt8], items: Int) {
        var rng = SplitMix64(seed: seed)
        var w = PBFWriter(capacity: target * 2)
        var n = 0
        var x: Int32 = 2048, y: Int32 = 2048
        while n < target {
            let vertices = 2 + rng.below(59)
            // MoveTo(1), then LineTo(vertices - 1) (§4.3.1 command integer, §4.3.2 parameters).
            w.writeVarint(UInt64(1 | 1 << 3)); n += 1
            let jx = Int32(rng.below(4096)) - x, jy = Int32(rng.below(4096)) - y
            w.writeSInt32(jx); w.writeSInt32(jy); n += 2
            x += jx; y += jy
            w.writeVarint(UInt64(2 | UInt32(vertices - 1) << 3)); n += 1
            for _ in 1..<vertices {
                let dx = Int32(rng.normal() * 40), dy = Int32(rng.normal() * 40)
                w.writeSInt32(dx); w.writeSInt32(dy); n += 2
                x &+= dx; y &+= dy
            }
        }
        return (w.bytes, n)
    }
}
