import JSON
import GeoModel

extension GeoJSONFeatureBatch {
    /// A batch holding `features`, as a reader would have filled it from their text.
    ///
    /// - Parameter features: the features, in order.
    public init(features: [GeoFeature]) {
        self.init()
        removeAll()
        for f in features { append(f, at: 0) }
        padColumns()
    }

    /// Feature `i`'s id.
    ///
    /// - Parameter i: the feature's index in the batch.
    public func id(_ i: Int) -> FeatureID? {
        switch idKinds[i] {
        case .none: return nil
        case .int: return .int(Int64(bitPattern: idNumbers[i]))
        case .uint: return .uint(idNumbers[i])
        case .double: return .double(Double(bitPattern: idNumbers[i]))
        case .string:
            let start = i == 0 ? 0 : idByteEnds[i - 1]
            return .string(String(decoding: idBytes[start..<idByteEnds[i]], as: UTF8.self))
        }
    }

    /// Feature `i`'s geometry; nil for `"geometry": null`.
    ///
    /// - Parameter i: the feature's index in the batch.
    public func geometry(_ i: Int) -> Geometry? {
        let first = featureGeometryOffsets[i]
        guard first < featureGeometryOffsets[i + 1] else { return nil }
        var next = first
        return geometry(entry: &next)
    }

    /// The geometry of entry `g` (with a collection's members), moving `g` past it.
    func geometry(entry g: inout Int) -> Geometry {
        let e = g
        g += 1
        guard let kind = GeoJSONFeatureBatch.kind(ofCode: geometryTypes[e]) else { preconditionFailure("geometry type code") }
        if kind == .geometryCollection {
            var members: [Geometry] = []
            for _ in 0..<geometryMemberCounts[e] { members.append(geometry(entry: &g)) }
            return .collection(members)
        }
        let dims = Int(geometryDimensions[e])
        let positions = geometryPositionOffsets[e]..<geometryPositionOffsets[e + 1]
        var values: [Double] = []
        values.reserveCapacity(positions.count * dims)
        if dims == dimensions {
            values.append(contentsOf: coordinates[(positions.lowerBound * dims)..<(positions.upperBound * dims)])
        } else {
            for p in positions {
                for k in 0..<dims { values.append(coordinates[p * dimensions + k]) }
            }
        }
        let parts = geometryPartOffsets[e]..<geometryPartOffsets[e + 1]
        let polygons = geometryPolygonOffsets[e]..<geometryPolygonOffsets[e + 1]
        return Geometry(kind: kind, coordinates: values,
                        partStarts: partStarts[parts].map { $0 - positions.lowerBound },
                        polygonStarts: polygonStarts[polygons].map { $0 - parts.lowerBound },
                        dimensions: dims)
    }

    /// Feature `i`'s properties, in its own member order; nil for `"properties": null`.
    ///
    /// - Parameter i: the feature's index in the batch.
    public func properties(_ i: Int) -> PropertyList? {
        guard hasProperties[i] else { return nil }
        var list = PropertyList()
        for m in memberOffsets[i]..<memberOffsets[i + 1] {
            let c = Int(memberColumns[m])
            if c >= 0 {
                list.append(key: columns[c].name, value: columns[c].value(at: i) ?? .null)
            } else {
                let r = repeatedMembers[-1 - c]
                list.append(key: r.name, value: r.value)
            }
        }
        return list
    }

    /// Feature `i` as the model holds it: the feature the streaming reader returns for the
    /// same text.
    ///
    /// - Parameter i: the feature's index in the batch.
    public func feature(_ i: Int) -> GeoFeature {
        let x = extras[i]
        return GeoFeature(id: id(i), geometry: geometry(i), properties: properties(i),
                          bbox: x?.bbox, foreignMembers: x?.foreignMembers)
    }

    /// Every feature of the batch as the model holds it.
    public var features: [GeoFeature] { (0..<count).map(feature) }
}
