/// The writer's cache of rendered member names, for objects that share one array of
/// names.
///
/// The reader gives consecutive objects with the same names in the same order one shared
/// `[String]` (as do programs that build features from one list of keys), so a file of
/// similar features has one names array. When the writer meets the same array twice in a
/// row it renders `"name":` for each name once and then copies bytes per member instead
/// of checking and escaping each name again. Objects with their own arrays cost one
/// identity test each and are written as before.
@usableFromInline package struct _MemberNameCache {
    /// The names array met last. Held, so its buffer cannot be freed or changed while it
    /// is compared by address.
    @usableFromInline package var names: [String] = []
    /// `"name":` for each of `names`, back to back, then 16 bytes of padding (so copies
    /// may read two whole words); empty until the array is met a second time.
    @usableFromInline package var text: [UInt8] = []
    /// Where each name's text ends in `text`.
    @usableFromInline package var ends: [Int] = []

    /// Whether `keys` is the array met last, now rendered; remembers it otherwise.
    @inline(__always)
    @inlinable package mutating func rendered(for keys: [String]) -> Bool {
        if _MemberNameCache.sameBuffer(keys, names) {
            if text.isEmpty { render() }
            return true
        }
        names = keys
        text = []
        ends = []
        return false
    }

    @inline(__always)
    @inlinable package static func sameBuffer(_ a: [String], _ b: [String]) -> Bool {
        a.count == b.count && a.withUnsafeBufferPointer { pa in
            b.withUnsafeBufferPointer { pb in pa.baseAddress == pb.baseAddress }
        }
    }

    @inline(never)
    @inlinable package mutating func render() {
        var w = JSONWriter()
        ends.reserveCapacity(names.count)
        for name in names {
            w.appendString(name)
            w.put(UInt8(ascii: ":"))
            ends.append(w.count)
        }
        text = w.bytes + [UInt8](repeating: 0, count: 16)
    }
}
