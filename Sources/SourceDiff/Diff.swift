import GeoModel

/// A change to a data source, in the shape of MapLibre GL's GeoJSON source diff
/// (`GeoJSONSourceDiff`), so a web map can consume it: applied as `removeAll`, then
/// `remove`, then `add`, then `update`.
public struct GeoJSONSourceDiff: Equatable, Sendable {
    /// Remove every feature first.
    public var removeAll: Bool
    /// Features to remove, by id.
    public var remove: [FeatureKey]
    /// Features to add (each must have an id, or the promoted property).
    public var add: [GeoFeature]
    /// Changes to existing features.
    public var update: [FeatureUpdate]

    public init(removeAll: Bool = false, remove: [FeatureKey] = [], add: [GeoFeature] = [], update: [FeatureUpdate] = []) {
        self.removeAll = removeAll
        self.remove = remove
        self.add = add
        self.update = update
    }

    /// Whether applying the diff changes nothing.
    public var isEmpty: Bool { !removeAll && remove.isEmpty && add.isEmpty && update.isEmpty }
}

/// A change to one feature: a new geometry and property edits, applied as
/// `removeAllProperties`, then `removeProperties`, then `addOrUpdateProperties`.
public struct FeatureUpdate: Equatable, Sendable {
    public var id: FeatureKey
    public var newGeometry: Geometry?
    public var removeAllProperties: Bool
    public var removeProperties: [String]
    /// Properties to set, in order; a key already present keeps its place.
    public var addOrUpdateProperties: PropertyList

    public init(id: FeatureKey, newGeometry: Geometry? = nil, removeAllProperties: Bool = false,
                removeProperties: [String] = [], addOrUpdateProperties: PropertyList = PropertyList())
    {
        self.id = id
        self.newGeometry = newGeometry
        self.removeAllProperties = removeAllProperties
        self.removeProperties = removeProperties
        self.addOrUpdateProperties = addOrUpdateProperties
    }

    /// Whether the update changes nothing.
    public var isEmpty: Bool {
        newGeometry == nil && !removeAllProperties && removeProperties.isEmpty && addOrUpdateProperties.isEmpty
    }

    /// The feature after this update.
    public func applied(to feature: GeoFeature) -> GeoFeature {
        var f = feature
        if let g = newGeometry { f.geometry = g }
        var props = f.properties ?? PropertyList()
        if removeAllProperties { props.removeAll() }
        for k in removeProperties { props.remove(k) }
        for (k, v) in addOrUpdateProperties { props.set(k, v) }
        f.properties = props
        return f
    }

    /// One update equivalent to this one followed by `later` (same feature): the later
    /// geometry wins, property edits merge key by key, and a later `removeAllProperties`
    /// discards the earlier edits.
    public func followed(by later: FeatureUpdate) -> FeatureUpdate {
        var u = self
        if let g = later.newGeometry { u.newGeometry = g }
        if later.removeAllProperties {
            u.removeAllProperties = true
            u.removeProperties = []
            u.addOrUpdateProperties = PropertyList()
        }
        for k in later.removeProperties {
            u.addOrUpdateProperties.remove(k)
            if !u.removeAllProperties && !u.removeProperties.contains(k) { u.removeProperties.append(k) }
        }
        for (k, v) in later.addOrUpdateProperties {
            u.removeProperties.removeAll { $0 == k }
            u.addOrUpdateProperties.set(k, v)
        }
        return u
    }
}

/// Why a diff or a store could not be applied or built. Every case names the feature.
public enum SourceDiffError: Error, Equatable, Sendable, CustomStringConvertible {
    /// Two features with the same id (in the initial data, or an `add` of an id present).
    case duplicateID(FeatureKey)
    /// An update or a remove of an id the store does not hold.
    case unknownID(FeatureKey)
    /// A feature without an id (or without the promoted property); `index` is its position
    /// in the initial data or in `add`.
    case missingID(index: Int)
    /// A malformed diff document (JSON): what is wrong and where.
    case invalidDiff(String)

    public var description: String {
        switch self {
        case .duplicateID(let k): return "duplicate feature id \(k)"
        case .unknownID(let k): return "no feature with id \(k)"
        case .missingID(let i): return "feature \(i) has no id"
        case .invalidDiff(let s): return "invalid diff: \(s)"
        }
    }
}

extension GeoJSONSourceDiff {
    /// One diff equivalent to applying `self` and then `later` to any store both apply to
    /// (in strict mode): a later `removeAll` discards everything before it; a later remove
    /// cancels earlier adds and updates of the id; a later update of an added feature is
    /// folded into the add; updates of one id merge (`FeatureUpdate.followed(by:)`).
    /// To coalesce many diffs, fold them into one `DiffMerger`, which keeps its indexes.
    ///
    /// - Parameter later: the diff applied after this one.
    /// - Parameter promoteId: the property that names features, when ids are promoted.
    public func merged(with later: GeoJSONSourceDiff, promoteId: String? = nil) -> GeoJSONSourceDiff {
        var m = DiffMerger(self, promoteId: promoteId)
        m.fold(later)
        return m.result
    }
}

/// Coalesces a burst of diffs into one (live data: one diff per second, sent on as one):
/// `fold` costs in proportion to the folded diff, not to what was folded before.
public struct DiffMerger {
    public let promoteId: String?
    var out: GeoJSONSourceDiff
    var addIndex: [FeatureKey: Int] = [:]
    /// Every update of an id (a diff may update one id several times).
    var updateIndex: [FeatureKey: [Int]] = [:]
    var removed: Set<FeatureKey>
    var dropAdds = Set<Int>(), dropUpdates = Set<Int>()

    /// A merger holding `first`.
    public init(_ first: GeoJSONSourceDiff = GeoJSONSourceDiff(), promoteId: String? = nil) {
        self.promoteId = promoteId
        out = first
        removed = Set(first.remove)
        for (i, f) in out.add.enumerated() { if let k = FeatureKey.of(f, promoteId: promoteId) { addIndex[k] = i } }
        for (i, u) in out.update.enumerated() { updateIndex[u.id, default: []].append(i) }
    }

    /// Folds in a diff applied after everything folded so far.
    public mutating func fold(_ later: GeoJSONSourceDiff) {
        if later.removeAll {
            self = DiffMerger(later, promoteId: promoteId)
            return
        }
        for k in later.remove {
            for i in updateIndex.removeValue(forKey: k) ?? [] { dropUpdates.insert(i) }
            if let i = addIndex.removeValue(forKey: k) {
                // Added earlier: either it did not exist before (nothing left to remove) or
                // it was removed first (already listed).
                dropAdds.insert(i)
                continue
            }
            if removed.insert(k).inserted { out.remove.append(k) }
        }
        for f in later.add {
            guard let k = FeatureKey.of(f, promoteId: promoteId) else { out.add.append(f); continue }
            for i in updateIndex.removeValue(forKey: k) ?? [] { dropUpdates.insert(i) }
            if let i = addIndex[k] { dropAdds.insert(i) }
            addIndex[k] = out.add.count
            out.add.append(f)
        }
        for u in later.update {
            if let i = updateIndex[u.id]?.last {
                // After the earlier updates of the id (which follow its add, if any).
                out.update[i] = out.update[i].followed(by: u)
            } else if let i = addIndex[u.id] {
                out.add[i] = u.applied(to: out.add[i])
            } else {
                updateIndex[u.id] = [out.update.count]
                out.update.append(u)
            }
        }
    }

    /// The merged diff.
    public var result: GeoJSONSourceDiff {
        var d = out
        if !dropAdds.isEmpty { d.add = d.add.enumerated().filter { !dropAdds.contains($0.offset) }.map(\.element) }
        if !dropUpdates.isEmpty { d.update = d.update.enumerated().filter { !dropUpdates.contains($0.offset) }.map(\.element) }
        return d
    }
}

extension FeatureKey {
    /// A feature's key: its `id`, or with `promoteId` the value of that property.
    public static func of(_ feature: GeoFeature, promoteId: String? = nil) -> FeatureKey? {
        if let p = promoteId { return feature.properties?[p].flatMap { FeatureKey($0) } }
        return feature.id.map { FeatureKey($0) }
    }
}
