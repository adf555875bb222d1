import GeoModel

/// How the features of two snapshots are paired when some have no id.
///
/// A data source keys features by id (or a promoted property); a feature without one cannot
/// be updated in place. Diffing snapshots whose features lack ids therefore needs an
/// explicit choice, stated in the output:
///
/// - ``id``: only ids pair features; a feature without one is an error for the caller to
///   report (``FeatureMatcher/missingIDs`` counts them), never silently skipped.
/// - ``index``: a feature without an id is paired by its position in its snapshot (the
///   n-th feature of the old snapshot with the n-th of the new); a changed geometry or
///   property at the same position is an update.
/// - ``content``: a feature without an id is paired by its geometry and properties (member
///   order ignored); identical features are paired in order of appearance, so two copies
///   in the old snapshot and one in the new make one removal. A changed feature is a
///   removal and an addition, as it is a different feature under this policy.
///
/// The matcher gives such a feature a synthetic string key: `index:N` (0-based position)
/// or `content:HASH:N` (the content hash in hex and the occurrence, 0-based), which the
/// diff then carries in its removals and updates.
public enum FeatureMatching: String, Sendable, CaseIterable {
    case id
    case index
    case content = "geometry+properties"

    /// Whether `s` has the form of the keys this policy gives features without an id:
    /// `index:N` for ``index``, `content:HASH:N` for ``content``, none for ``id``.
    public func isSyntheticKey(_ s: String) -> Bool {
        switch self {
        case .id: return false
        case .index: return s.hasPrefix("index:") && FeatureMatcher.isSyntheticKey(s)
        case .content: return s.hasPrefix("content:") && FeatureMatcher.isSyntheticKey(s)
        }
    }

    /// In words, for the output of a command.
    public var summary: String {
        switch self {
        case .id: return "by id"
        case .index: return "by id, and features without an id by their position in the snapshot (keys index:N)"
        case .content: return "by id, and features without an id by their geometry and properties, copies in order (keys content:HASH:N)"
        }
    }
}

/// Gives features without an id the synthetic key their ``FeatureMatching`` policy calls
/// for. Use one matcher per snapshot, fed its features in order.
public struct FeatureMatcher {
    public let policy: FeatureMatching
    public let promoteId: String?
    /// Features seen so far.
    public private(set) var position = 0
    /// Features that had no id (or no usable promoted property).
    public private(set) var missingIDs = 0
    /// Features without an id whose content repeated an earlier one's (`content` policy).
    public private(set) var repeatedContent = 0
    /// Features whose real key (id or promoted property) has the form of this policy's
    /// synthetic keys, and the first one's position and key. Such a key could name a feature
    /// without an id as well, so the caller must refuse the snapshot
    /// (``SnapshotPairingError/syntheticLookingKey(snapshot:position:key:count:)``): a
    /// synthetic key never stands for a real one.
    public private(set) var syntheticLookingKeys = 0
    public private(set) var firstSyntheticLooking: (position: Int, key: FeatureKey)?
    var occurrences: [UInt64: Int] = [:]

    public init(policy: FeatureMatching, promoteId: String? = nil) {
        self.policy = policy
        self.promoteId = promoteId
    }

    /// The feature as the diff should see it: unchanged when it has a key; otherwise with
    /// a synthetic id (`index` and `content`), or unchanged and counted (`id`).
    public mutating func keyed(_ f: GeoFeature) -> GeoFeature {
        defer { position += 1 }
        if let key = FeatureKey.of(f, promoteId: promoteId) {
            if case .string(let s) = key, policy.isSyntheticKey(s) {
                syntheticLookingKeys += 1
                if firstSyntheticLooking == nil { firstSyntheticLooking = (position, key) }
            }
            return f
        }
        missingIDs += 1
        var g = f
        switch policy {
        case .id:
            return f
        case .index:
            g.id = .string("index:\(position)")
        case .content:
            let h = Self.contentHash(f)
            let n = occurrences[h, default: 0]
            if n > 0 { repeatedContent += 1 }
            occurrences[h] = n + 1
            g.id = .string("content:" + String(h, radix: 16) + ":\(n)")
        }
        if let p = promoteId {
            // The promoted property names the feature: set it too, so the key is used.
            var props = g.properties ?? PropertyList()
            if let i = props.keys.firstIndex(of: p) { props.values[i] = .string(g.id!.stringValue) } else {
                props.keys.append(p)
                props.values.append(.string(g.id!.stringValue))
            }
            g.properties = props
        }
        return g
    }

    /// Whether `s` has the form of a synthetic key of either policy (`index:N`,
    /// `content:HASH:N`).
    public static func isSyntheticKey(_ s: String) -> Bool {
        let parts = s.split(separator: ":", omittingEmptySubsequences: false)
        func number(_ p: Substring) -> Bool { !p.isEmpty && p.allSatisfy { $0.isASCII && $0.isNumber } }
        if parts.count == 2 && parts[0] == "index" { return number(parts[1]) }
        if parts.count == 3 && parts[0] == "content" { return !parts[1].isEmpty && parts[1].allSatisfy(\.isHexDigit) && number(parts[2]) }
        return false
    }

    /// The feature as it was before `keyed(_:)` gave it a synthetic key: the id removed
    /// (and the promoted property, when it holds the key). A feature with a real key is
    /// returned unchanged; so is one whose id only looks synthetic under the `id` policy.
    public func unkeyed(_ f: GeoFeature) -> GeoFeature {
        guard case .string(let s)? = f.id, policy.isSyntheticKey(s) else { return f }
        var g = f
        g.id = nil
        if let p = promoteId, var props = g.properties, let i = props.keys.firstIndex(of: p), props.values[i] == .string(s) {
            props.keys.remove(at: i)
            props.values.remove(at: i)
            g.properties = props
        }
        return g
    }

    /// A 64-bit hash of a feature's geometry and properties; property order is ignored (the
    /// members' hashes are summed).
    public static func contentHash(_ f: GeoFeature) -> UInt64 {
        var m = SnapshotDiff._ContentHash()
        if let g = f.geometry { m.add(g) } else { m.add(0) }
        var members: UInt64 = 0
        if let p = f.properties {
            for (k, v) in zip(p.keys, p.values) {
                var e = SnapshotDiff._ContentHash()
                e.add(k)
                e.add(v)
                members &+= e.h
            }
            m.add(UInt64(p.keys.count))
        }
        m.add(members)
        return m.h
    }
}

extension FeatureID {
    /// The id's text (a string as is, a number as written).
    var stringValue: String {
        switch self {
        case .string(let s): return s
        case .int(let i): return String(i)
        case .uint(let u): return String(u)
        case .double(let d): return String(d)
        }
    }
}
