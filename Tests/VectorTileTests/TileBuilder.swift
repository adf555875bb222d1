import PBF

/// Builds tiles field by field with the wire writer, so tests can state exactly which
/// bytes a tile holds (including broken ones).
struct TileBuilder {
    struct FeatureSpec {
        var id: UInt64? = 1
        var tags: [UInt32] = []
        var type: UInt64? = 1
        var geometry: [UInt32]? = [9, 50, 34]
        /// Write geometry and tags unpacked (one varint field per value).
        var unpacked = false
        var extraGeometryRecords: [[UInt32]] = []
    }

    struct LayerSpec {
        var version: UInt32? = 2
        var name: String? = "hello"
        var extent: UInt32? = nil
        var keys: [String] = []
        var values: [[UInt8]] = []   // encoded Value messages
        var features: [FeatureSpec] = [FeatureSpec()]
        var unknownField = false
    }

    static func packed(_ values: [UInt32]) -> [UInt8] {
        var w = PBFWriter()
        for v in values { w.writeVarint(UInt64(v)) }
        return w.bytes
    }

    static func feature(_ f: FeatureSpec) -> [UInt8] {
        var w = PBFWriter()
        if let id = f.id { w.writeKey(field: 1, wireType: .varint); w.writeVarint(id) }
        if !f.tags.isEmpty {
            if f.unpacked {
                for t in f.tags { w.writeKey(field: 2, wireType: .varint); w.writeVarint(UInt64(t)) }
            } else {
                w.writeKey(field: 2, wireType: .lengthDelimited); w.writeLengthDelimited(packed(f.tags))
            }
        }
        if let t = f.type { w.writeKey(field: 3, wireType: .varint); w.writeVarint(t) }
        if let g = f.geometry {
            if f.unpacked {
                for v in g { w.writeKey(field: 4, wireType: .varint); w.writeVarint(UInt64(v)) }
            } else {
                w.writeKey(field: 4, wireType: .lengthDelimited); w.writeLengthDelimited(packed(g))
            }
        }
        for g in f.extraGeometryRecords {
            w.writeKey(field: 4, wireType: .lengthDelimited); w.writeLengthDelimited(packed(g))
        }
        return w.bytes
    }

    static func stringValue(_ s: String) -> [UInt8] {
        var w = PBFWriter()
        w.writeKey(field: 1, wireType: .lengthDelimited); w.writeLengthDelimited(Array(s.utf8))
        return w.bytes
    }

    static func layer(_ l: LayerSpec) -> [UInt8] {
        var w = PBFWriter()
        if let v = l.version { w.writeKey(field: 15, wireType: .varint); w.writeVarint(UInt64(v)) }
        if let n = l.name { w.writeKey(field: 1, wireType: .lengthDelimited); w.writeLengthDelimited(Array(n.utf8)) }
        for f in l.features { w.writeKey(field: 2, wireType: .lengthDelimited); w.writeLengthDelimited(feature(f)) }
        for k in l.keys { w.writeKey(field: 3, wireType: .lengthDelimited); w.writeLengthDelimited(Array(k.utf8)) }
        for v in l.values { w.writeKey(field: 4, wireType: .lengthDelimited); w.writeLengthDelimited(v) }
        if let e = l.extent { w.writeKey(field: 5, wireType: .varint); w.writeVarint(UInt64(e)) }
        if l.unknownField { w.writeKey(field: 99, wireType: .fixed64); w.writeFixed64(7) }
        return w.bytes
    }

    static func tile(_ layers: [LayerSpec]) -> [UInt8] {
        var w = PBFWriter()
        for l in layers { w.writeKey(field: 3, wireType: .lengthDelimited); w.writeLengthDelimited(layer(l)) }
        return w.bytes
    }
}
