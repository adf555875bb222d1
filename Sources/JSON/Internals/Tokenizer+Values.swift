import CJSONSkip
import GeoModel

extension JSONTokenizer {
    // MARK: Generic values

    /// Reads any JSON value into a `PropertyValue` (objects keep member order; duplicate
    /// member names are kept as they come, see `GeoJSONReader`).
    @inlinable package mutating func readValue(depth: Int) throws(JSONError) -> PropertyValue {
        guard let b = try peekNonWhitespace() else { throw error(.unexpectedEnd, at: end) }
        switch b {
        case UInt8(ascii: "\""):
            return .string(try readString())
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
            if let (value, e) = NumberParser.quick(base, start: pos, end: end) {
                pos = e
                return value
            }
            return try readNumber().propertyValue
        case UInt8(ascii: "{"):
            return .object(try readObject(depth: depth + 1))
        case UInt8(ascii: "["):
            guard depth + 1 <= maxDepth else { throw error(.depthLimitExceeded(maxDepth), at: pos) }
            pos += 1
            var items: [PropertyValue] = []
            if try peekNonWhitespace() == UInt8(ascii: "]") {
                pos += 1
                return .array(items)
            }
            repeat {
                do {
                    items.append(try readValue(depth: depth + 1))
                } catch {
                    throw error.prefixed(.index(items.count))
                }
            } while try afterArrayElement()
            return .array(items)
        case UInt8(ascii: "t"), UInt8(ascii: "f"), UInt8(ascii: "n"):
            return try readLiteral()
        default:
            throw error(.unexpectedByte(b, expected: "a JSON value"), at: pos)
        }
    }

    /// Reads an object at `pos` (its `{` not yet consumed) into a property list.
    @inlinable package mutating func readObject(depth: Int) throws(JSONError) -> PropertyList {
        guard depth <= maxDepth else { throw error(.depthLimitExceeded(maxDepth), at: pos) }
        try expect(UInt8(ascii: "{"), "'{'")
        var list = PropertyList()
        if try peekNonWhitespace() == UInt8(ascii: "}") {
            pos += 1
            return list
        }
        // Features of one collection usually share a schema: size for the last object, and
        // while the names repeat the last object's at this depth, share its array of names
        // instead of building a new one (`matched` names so far; the array is copied out
        // only at the first difference).
        let slot = depth & (JSONTokenizer.sharedKeyDepths - 1)
        if sharedKeys.isEmpty { sharedKeys = Array(repeating: [], count: JSONTokenizer.sharedKeyDepths) }
        let previous = sharedKeys[slot]
        var matched = 0
        var sharing = !previous.isEmpty
        // While the names repeat the last object's, each is compared with its expected
        // bytes in the text (the table is taken here: a nested object of the same slot
        // may replace it).
        let hasTable = sharing && sharedKeyTables & (1 << UInt8(slot)) != 0
        let expectedText = hasTable ? sharedKeyText[slot] : [], expectedStarts = hasTable ? sharedKeyStarts[slot] : []
        list.values.reserveCapacity(max(lastObjectSize, previous.count))
        if !sharing, lastObjectSize > 0 { list.keys.reserveCapacity(lastObjectSize) }
        defer { lastObjectSize = list.count }
        while true {
            let q = try nextNonWhitespace(expected: "a member name")
            guard q == UInt8(ascii: "\"") else { throw error(.unexpectedByte(q, expected: "a member name"), at: pos - 1) }
            pos -= 1
            let key: String
            if sharing, hasTable, matched < previous.count,
               let e = JSONTokenizer.expectedName(matched, expectedText, expectedStarts, base, pos, end) {
                key = previous[matched]
                pos = e
            } else {
                key = try readKey()
            }
            try expect(UInt8(ascii: ":"), "':'")
            let value: PropertyValue
            do {
                value = try readValue(depth: depth)
            } catch {
                throw error.prefixed(.key(key))
            }
            if sharing, matched < previous.count, previous[matched] == key {
                matched += 1
                list.values.append(value)
            } else {
                if sharing {
                    sharing = false
                    list.keys = Array(previous[0..<matched])
                }
                list.append(key: key, value: value)
            }
            let c = try nextNonWhitespace(expected: "',' or '}'")
            if c == UInt8(ascii: "}") {
                if sharing {
                    if matched == previous.count {
                        list.keys = previous
                        if !hasTable { buildNameTable(slot) }
                        return list
                    }
                    list.keys = Array(previous[0..<matched])
                }
                sharedKeys[slot] = list.keys
                sharedKeyTables &= ~(1 << UInt8(slot))
                return list
            }
            guard c == UInt8(ascii: ",") else { throw self.error(.unexpectedByte(c, expected: "',' or '}'"), at: pos - 1) }
        }
    }

    /// Object depths (modulo) that remember their last object's names.
    @usableFromInline package static let sharedKeyDepths = 8

    /// The window index after the closing quote of the name at `pos` when it is the
    /// expected name `index` of a table, byte for byte; nil otherwise (then `readKey`
    /// reads it). A name in the table needs no escape, so equal bytes are that string.
    @inline(__always)
    @inlinable package static func expectedName(_ index: Int, _ text: [UInt8], _ starts: [Int],
                             _ base: UnsafePointer<UInt8>, _ pos: Int, _ end: Int) -> Int? {
        let s = starts[index], n = starts[index + 1] - s
        guard n > 0, pos + 1 + n <= end else { return nil }
        let same = text.withUnsafeBufferPointer { t in JSONTokenizer.sameBytes(t.baseAddress! + s, base + pos + 1, n) }
        return same ? pos + 1 + n : nil
    }

    /// Builds the name table of `slot` from `sharedKeys[slot]`.
    @inlinable package mutating func buildNameTable(_ slot: Int) {
        if sharedKeyText.isEmpty {
            sharedKeyText = Array(repeating: [], count: JSONTokenizer.sharedKeyDepths)
            sharedKeyStarts = Array(repeating: [], count: JSONTokenizer.sharedKeyDepths)
        }
        var text: [UInt8] = []
        var starts: [Int] = [0]
        for name in sharedKeys[slot] {
            if !name.utf8.contains(where: _ByteMasks.mustEscape) {
                text += name.utf8
                text.append(UInt8(ascii: "\""))
            }
            starts.append(text.count)
        }
        sharedKeyText[slot] = text
        sharedKeyStarts[slot] = starts
        sharedKeyTables |= 1 << UInt8(slot)
    }

    /// Skips any JSON value without building anything, checking it as `structuralSkip`
    /// says (fully by default).
    ///
    /// Arrays and objects go first through `gr_json_skip` (CJSONSkip), which finds the end
    /// of a valid value held whole in the window with no call per token (under the
    /// structural contract, `gr_skip_structural`, which checks structure and UTF-8 over
    /// 64-byte blocks, with AVX2 where the CPU has it, and leaves scalars' grammar
    /// unchecked); whatever it does not accept (bad input, a value cut by the window's end,
    /// rare numbers) is skipped by `skipValueScalar`, which reports errors. Only the
    /// outermost value tries the fast path: the scalar skipper never calls back into it, so a
    /// refused value costs one extra pass at most, whatever its nesting.
    @inlinable package mutating func skipValue(depth: Int) throws(JSONError) {
        guard let b = try peekNonWhitespace() else { throw error(.unexpectedEnd, at: end) }
        if b == UInt8(ascii: "{") || b == UInt8(ascii: "[") {
            let e = structuralSkip ? gr_skip_structural(base, pos, end, maxDepth - depth, 2)
                                   : gr_json_skip(base, pos, end, maxDepth - depth)
            if e >= 0 {
                pos = e
                return
            }
        }
        try skipValueScalar(depth: depth)
    }

    /// Skips any JSON value, validating it token by token (the reference for the fast path
    /// of `skipValue`).
    @inlinable package mutating func skipValueScalar(depth: Int) throws(JSONError) {
        guard let b = try peekNonWhitespace() else { throw error(.unexpectedEnd, at: end) }
        switch b {
        case UInt8(ascii: "\""):
            _ = try scanString()
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
            // Most skipped numbers only need their grammar checked; `readNumber` decides
            // the rest (exponents, errors, a number at the window's end).
            if let e = NumberParser.skim(base, start: pos, end: end) { pos = e } else { _ = try readNumber() }
        case UInt8(ascii: "t"), UInt8(ascii: "f"), UInt8(ascii: "n"):
            _ = try readLiteral()
        case UInt8(ascii: "["):
            guard depth + 1 <= maxDepth else { throw error(.depthLimitExceeded(maxDepth), at: pos) }
            pos += 1
            if try peekNonWhitespace() == UInt8(ascii: "]") {
                pos += 1
                return
            }
            var index = 0
            repeat {
                do { try skipValueScalar(depth: depth + 1) } catch { throw error.prefixed(.index(index)) }
                index += 1
            } while try afterArrayElement()
        case UInt8(ascii: "{"):
            guard depth + 1 <= maxDepth else { throw error(.depthLimitExceeded(maxDepth), at: pos) }
            pos += 1
            if try peekNonWhitespace() == UInt8(ascii: "}") {
                pos += 1
                return
            }
            while true {
                let q = try nextNonWhitespace(expected: "a member name")
                guard q == UInt8(ascii: "\"") else { throw error(.unexpectedByte(q, expected: "a member name"), at: pos - 1) }
                pos -= 1
                // The name is decoded only if its value turns out bad; the mark keeps its
                // bytes in the window until then.
                let keyAbs = offset(pos)
                let savedMark = mark
                mark = min(savedMark ?? keyAbs, keyAbs)
                let (ks, ke, kEscaped) = try scanString()
                let keyLength = ke - ks
                try expect(UInt8(ascii: ":"), "':'")
                do {
                    // Strings and numbers, most members, without a call per value.
                    switch try peekNonWhitespace() ?? 0 {   // 0: the end, which skipValue reports
                    case UInt8(ascii: "\""):
                        _ = try scanString()
                    case UInt8(ascii: "0")...UInt8(ascii: "9"):
                        if let e = NumberParser.skim(base, start: pos, end: end) { pos = e } else { _ = try readNumber() }
                    default:
                        try skipValueScalar(depth: depth + 1)
                    }
                } catch {
                    let s = keyAbs - baseOffset + 1
                    let key: String
                    if kEscaped {
                        decodeEscapes(s, s + keyLength)
                        key = String(decoding: scratch, as: UTF8.self)
                    } else {
                        key = String(decoding: UnsafeBufferPointer(start: base + s, count: keyLength), as: UTF8.self)
                    }
                    mark = savedMark
                    throw error.prefixed(.key(key))
                }
                mark = savedMark
                let c = try nextNonWhitespace(expected: "',' or '}'")
                if c == UInt8(ascii: "}") { return }
                guard c == UInt8(ascii: ",") else { throw self.error(.unexpectedByte(c, expected: "',' or '}'"), at: pos - 1) }
            }
        default:
            throw error(.unexpectedByte(b, expected: "a JSON value"), at: pos)
        }
    }
}

extension JSONError {
    /// The same error one level further out in the member path.
    @inlinable package func prefixed(_ c: JSONPathComponent) -> JSONError {
        var e = self
        e.path.insert(c, at: 0)
        return e
    }
}
