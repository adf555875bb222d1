import GeoModel

/// The value readers: any JSON value into GeoModel's `PropertyValue`, an object into a
/// `PropertyList`, or a value skipped and validated without building anything. They read
/// through a tokenizer, whose window and position they advance.
enum _ValueReader {
    /// Reads any JSON value into a `PropertyValue` (objects keep member order; duplicate
    /// member names are kept as they come, see `GeoJSONReader`).
    static func readValue(_ t: inout _Tokenizer, depth: Int) throws(GeoJSONError) -> PropertyValue {
        guard let b = try t.peekNonWhitespace() else { throw t.error(.unexpectedEnd, at: t.end) }
        switch b {
        case UInt8(ascii: "\""):
            return .string(try t.readString())
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
            return try t.readNumber().propertyValue
        case UInt8(ascii: "{"):
            return .object(try readObject(&t, depth: depth + 1))
        case UInt8(ascii: "["):
            guard depth + 1 <= t.maxDepth else { throw t.error(.depthLimitExceeded(t.maxDepth), at: t.pos) }
            t.pos += 1
            var items: [PropertyValue] = []
            if try t.peekNonWhitespace() == UInt8(ascii: "]") {
                t.pos += 1
                return .array(items)
            }
            repeat {
                do {
                    items.append(try readValue(&t, depth: depth + 1))
                } catch {
                    throw error.prefixed(.index(items.count))
                }
            } while try t.afterArrayElement()
            return .array(items)
        case UInt8(ascii: "t"), UInt8(ascii: "f"), UInt8(ascii: "n"):
            return try t.readLiteral()
        default:
            throw t.error(.unexpectedByte(b, expected: "a JSON value"), at: t.pos)
        }
    }

    /// Reads an object at `pos` (its `{` not yet consumed) into a property list.
    static func readObject(_ t: inout _Tokenizer, depth: Int) throws(GeoJSONError) -> PropertyList {
        guard depth <= t.maxDepth else { throw t.error(.depthLimitExceeded(t.maxDepth), at: t.pos) }
        try t.expect(UInt8(ascii: "{"), "'{'")
        var list = PropertyList()
        if try t.peekNonWhitespace() == UInt8(ascii: "}") {
            t.pos += 1
            return list
        }
        // Features of one collection usually share a schema: size for the last object.
        if t.lastObjectSize > 0 {
            list.keys.reserveCapacity(t.lastObjectSize)
            list.values.reserveCapacity(t.lastObjectSize)
        }
        defer { t.lastObjectSize = list.count }
        while true {
            let q = try t.nextNonWhitespace(expected: "a member name")
            guard q == UInt8(ascii: "\"") else { throw t.error(.unexpectedByte(q, expected: "a member name"), at: t.pos - 1) }
            t.pos -= 1
            let key = try t.readKey()
            try t.expect(UInt8(ascii: ":"), "':'")
            do {
                list.append(key: key, value: try readValue(&t, depth: depth))
            } catch {
                throw error.prefixed(.key(key))
            }
            let c = try t.nextNonWhitespace(expected: "',' or '}'")
            if c == UInt8(ascii: "}") { return list }
            guard c == UInt8(ascii: ",") else { throw t.error(.unexpectedByte(c, expected: "',' or '}'"), at: t.pos - 1) }
        }
    }

    /// Skips any JSON value, validating it, without building anything.
    static func skipValue(_ t: inout _Tokenizer, depth: Int) throws(GeoJSONError) {
        guard let b = try t.peekNonWhitespace() else { throw t.error(.unexpectedEnd, at: t.end) }
        switch b {
        case UInt8(ascii: "\""):
            _ = try t.scanString()
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
            _ = try t.readNumber()
        case UInt8(ascii: "t"), UInt8(ascii: "f"), UInt8(ascii: "n"):
            _ = try t.readLiteral()
        case UInt8(ascii: "["):
            guard depth + 1 <= t.maxDepth else { throw t.error(.depthLimitExceeded(t.maxDepth), at: t.pos) }
            t.pos += 1
            if try t.peekNonWhitespace() == UInt8(ascii: "]") {
                t.pos += 1
                return
            }
            var index = 0
            repeat {
                do { try skipValue(&t, depth: depth + 1) } catch { throw error.prefixed(.index(index)) }
                index += 1
            } while try t.afterArrayElement()
        case UInt8(ascii: "{"):
            guard depth + 1 <= t.maxDepth else { throw t.error(.depthLimitExceeded(t.maxDepth), at: t.pos) }
            t.pos += 1
            if try t.peekNonWhitespace() == UInt8(ascii: "}") {
                t.pos += 1
                return
            }
            while true {
                let q = try t.nextNonWhitespace(expected: "a member name")
                guard q == UInt8(ascii: "\"") else { throw t.error(.unexpectedByte(q, expected: "a member name"), at: t.pos - 1) }
                t.pos -= 1
                // The name is decoded only if its value turns out bad; the t.mark keeps its
                // bytes in the window until then.
                let keyAbs = t.offset(t.pos)
                let savedMark = t.mark
                t.mark = min(savedMark ?? keyAbs, keyAbs)
                let (ks, ke, kEscaped) = try t.scanString()
                let keyLength = ke - ks
                try t.expect(UInt8(ascii: ":"), "':'")
                do {
                    try skipValue(&t, depth: depth + 1)
                } catch {
                    let s = keyAbs - t.baseOffset + 1
                    let key: String
                    if kEscaped {
                        t.decodeEscapes(s, s + keyLength)
                        key = String(decoding: t.scratch, as: UTF8.self)
                    } else {
                        key = String(decoding: UnsafeBufferPointer(start: t.base + s, count: keyLength), as: UTF8.self)
                    }
                    t.mark = savedMark
                    throw error.prefixed(.key(key))
                }
                t.mark = savedMark
                let c = try t.nextNonWhitespace(expected: "',' or '}'")
                if c == UInt8(ascii: "}") { return }
                guard c == UInt8(ascii: ",") else { throw t.error(.unexpectedByte(c, expected: "',' or '}'"), at: t.pos - 1) }
            }
        default:
            throw t.error(.unexpectedByte(b, expected: "a JSON value"), at: t.pos)
        }
    }
}

extension GeoJSONError {
    /// The same error one level further out in the member path.
    func prefixed(_ c: JSONPathComponent) -> GeoJSONError {
        var e = self
        e.path.insert(c, at: 0)
        return e
    }
}
