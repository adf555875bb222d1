import PBF

extension Feature {
    /// Calls `body` with each (key index, value index) pair, checking that the list has
    /// even length (B6) and that every index is in range (B7).
    ///
    /// - Complexity: O(tags); allocates nothing.
    @inlinable
    public func forEachTag(_ body: (_ key: Int, _ value: Int) -> Void) throws(MVTError) {
        try _forEachTag(from: 0, body)
    }

    /// `forEachTag` from byte `first` of the tags record on. `first` is 0, or the start of
    /// a pair of a feature with one packed tags record.
    @inlinable @inline(__always)
    func _forEachTag(from first: Int, _ body: (_ key: Int, _ value: Int) -> Void) throws(MVTError) {
        if _tagRecords == 1, tagPayloadStart >= 0, let base = message.bytes.baseAddress {
            // The common case: one packed record, read in place without the stream's
            // record bookkeeping. Each pair is read with one raw load: two bytes for a pair
            // of one-byte indices, four for a one-byte key index and a value index of up to
            // three bytes, eight for any other pair of indices of one to three bytes (below
            // 2^21). The four- and eight-byte loads may reach past the record into the rest
            // of the feature message (near the message's end, the eight-byte window takes
            // the bytes that are there, padded with zeros). Anything else goes on the
            // checked loop from the same pair.
            let start = Int(tagPayloadStart)
            // The scan that made this view found the record within the message.
            let b = base + start, n = Int(tagPayloadEnd) &- start
            let loadable = message.bytes.count &- start
            var p = first
            let kc = UInt64(UInt32(bitPattern: keyCount)), vc = UInt64(UInt32(bitPattern: valueCount))
            // One-byte pairs only, in the tightest loop (most tiles' tags are all such);
            // anything else out of line.
            while p &+ 1 < n {
                // Safe: p + 2 <= n.
                let w = UInt64(UInt16(littleEndian: b.loadUnaligned(fromByteOffset: p, as: UInt16.self)))
                let k = w & 0xFF, v = w &>> 8
                guard w & 0x8080 == 0, k < kc, v < vc else { break }
                body(Int(k), Int(v))
                p &+= 2
            }
            if p &+ 1 < n { p = _tagPairsWide(b, p, n, loadable, kc, vc, body) }
            if p == n { return }
            try _tagsChecked(_sub(tagPayloadStart, tagPayloadEnd).positioned(at: p), body)
            return
        }
        var s = tagStream
        while let k = try s.next() {
            let at = s.lastOffset
            guard let v = try s.next() else { throw .oddTagCount(offset: at) }
            guard Int(k) < Int(keyCount) else { throw .tagIndexOutOfRange(index: k, offset: at) }
            guard Int(v) < Int(valueCount) else { throw .tagIndexOutOfRange(index: v, offset: s.lastOffset) }
            body(Int(k), Int(v))
        }
    }
}

extension Feature {
    /// Checks the tags as `forEachTag` does (B6, B7), with the same errors, without reading
    /// the pairs out.
    ///
    /// When the layer's key and value tables have at most 128 entries each (tested as
    /// `keys | values <= 128`, which passes over only a table of exactly 128 beside a
    /// non-empty one), every valid index takes one byte, and eight bytes (four pairs) are
    /// checked at once: each byte gets 128 − count added, its key or value table's count by
    /// its place, so an index below the count stays below 0x80, and one at or above it
    /// reaches 0x80 or more. A byte that is not a whole varint has its top bit set already.
    /// The last bytes are checked in the eight that end the record, any before the record
    /// left out. Anything else (an odd length; a longer index; an index out of range; a
    /// record that ends within the message's first eight bytes) goes on `forEachTag`'s
    /// loops from the first eight bytes that did not pass. Larger tables, where indices of
    /// two and three bytes are the rule (OSM QA tiles), go to `_checkTagsOnLoops`, which on
    /// x86 checks 16 bytes at a time first (`_checkTagBlocks`). So a wrong rejection by
    /// either word check would only cost time; the tests look for wrong acceptances.
    ///
    /// `ignored` is called with the pairs left to those loops (pass an empty closure;
    /// taking it from the caller lets the loops be specialised for it).
    ///
    /// - Complexity: O(tags); allocates nothing.
    @inline(__always)
    func _checkTags(_ ignored: (_ key: Int, _ value: Int) -> Void) throws(MVTError) {
        var bounds = _PairBounds(first: UInt32(bitPattern: keyCount), second: UInt32(bitPattern: valueCount))
        try withUnsafePointer(to: &bounds) { (p) throws(MVTError) in
            try _checkTags(tagBounds: p, ignored)
        }
    }

    /// `_checkTags` with the bounds of the 16-byte check for large tables, made for this
    /// feature's tables (the validator makes them once per layer).
    @inline(__always)
    func _checkTags(tagBounds: UnsafePointer<_PairBounds>, _ ignored: (_ key: Int, _ value: Int) -> Void) throws(MVTError) {
        var p = 0
        let kc = UInt64(UInt32(bitPattern: keyCount)), vc = UInt64(UInt32(bitPattern: valueCount))
        if kc | vc <= 128, _tagRecords == 1, tagPayloadStart >= 0, let base = message.bytes.baseAddress {
            let start = Int(tagPayloadStart), end = Int(tagPayloadEnd)
            let n = end &- start
            if n & 1 == 0, end >= 8 {
                let add = ((128 &- kc) | (128 &- vc) &<< 8) &* 0x0001_0001_0001_0001
                let top: UInt64 = 0x8080_8080_8080_8080
                // The scan that made this view found the record within the message.
                let b = base + start
                var ok = true
                while p &+ 8 < n {
                    // Safe: p + 8 < n.
                    let w = UInt64(littleEndian: b.loadUnaligned(fromByteOffset: p, as: UInt64.self))
                    ok = (w | (w &+ add)) & top == 0
                    guard ok else { break }
                    p &+= 8
                }
                if ok {
                    // The eight bytes that end the record: n is even, so byte 0 holds a key
                    // index. When the record is shorter, the bytes before it are left out of
                    // the test; none can carry into the record's, as the byte just before
                    // it is the last of its length's varint, below 8.
                    // Safe: the window is message bytes end - 8 ..< end, and end >= 8.
                    let w = UInt64(littleEndian: base.loadUnaligned(fromByteOffset: end &- 8, as: UInt64.self))
                    let keep = ~UInt64(0) &<< UInt64(truncatingIfNeeded: max(0, 64 &- 8 &* n))
                    if (w | (w &+ add)) & top & keep == 0 { return }
                }
            }
        }
        try _checkTagsOnLoops(from: p, tagBounds: tagBounds, ignored)
    }

    /// `forEachTag`'s loops from byte `p` of the tags record, for `_checkTags`. From the
    /// record's start, when either table has more than 128 entries, on x86 the pairs are
    /// first checked 16 bytes at a time (`_checkTagBlocks`), and the loops go on from where
    /// that check stops.
    @inline(never)
    func _checkTagsOnLoops(from first: Int, tagBounds: UnsafePointer<_PairBounds>,
                           _ ignored: (_ key: Int, _ value: Int) -> Void) throws(MVTError)
    {
        var p = first
        #if arch(x86_64) || arch(i386)
        // Records of fewer than 8 bytes go straight to the loops, as do those whose message
        // has no 16 bytes to load around them (the check would stop at once).
        if p == 0, keyCount | valueCount > 128, _tagRecords == 1, tagPayloadStart >= 0,
           tagPayloadEnd &- tagPayloadStart >= 8, tagPayloadEnd >= 16 || message.bytes.count &- Int(tagPayloadStart) >= 16
        {
            p = _checkTagBlocks(tagBounds)
            if p == Int(tagPayloadEnd &- tagPayloadStart) { return }
        }
        #endif
        try _forEachTag(from: p, ignored)
    }

    #if arch(x86_64) || arch(i386)
    /// How far the pairs of the one packed tags record are known to be valid by
    /// `_checkPairBlocks` (PBF's SSE2 kernel) with `tagBounds`: the offset in the record from
    /// which the loops go on.
    @usableFromInline @inline(never)
    func _checkTagBlocks(_ tagBounds: UnsafePointer<_PairBounds>) -> Int {
        guard let base = message.bytes.baseAddress else { return 0 }
        let start = Int(tagPayloadStart), n = Int(tagPayloadEnd) &- start
        // The scan that made this view found the record within the message.
        let b = (base + start).assumingMemoryBound(to: UInt8.self), loadable = message.bytes.count &- start
        return _checkPairBlocks(b, n, start, loadable, tagBounds)
    }
    #endif

    /// The tag pairs of one packed record from `r`'s position on, with every check: what
    /// the raw loads of `forEachTag` leave (longer varints, an odd count, an index out of
    /// range, a malformed varint), reported with its offset.
    @inlinable @inline(never)
    func _tagsChecked(_ reader: PBFReader, _ body: (_ key: Int, _ value: Int) -> Void) throws(MVTError) {
        var r = reader
        while !r.isAtEnd {
            let at = r.absoluteOffset
            let k: UInt32
            do throws(PBFError) { k = try r.readUInt32() } catch { throw .malformed(error) }
            guard !r.isAtEnd else { throw .oddTagCount(offset: at) }
            let vAt = r.absoluteOffset
            let v: UInt32
            do throws(PBFError) { v = try r.readUInt32() } catch { throw .malformed(error) }
            guard Int(k) < Int(keyCount) else { throw .tagIndexOutOfRange(index: k, offset: at) }
            guard Int(v) < Int(valueCount) else { throw .tagIndexOutOfRange(index: v, offset: vAt) }
            body(Int(k), Int(v))
        }
    }
}
