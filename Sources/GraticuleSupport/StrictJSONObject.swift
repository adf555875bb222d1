import Foundation

/// A JSON object read from a file, whose keys are checked: every key a reader does not ask
/// for is an error naming the file and the key. Used for external implementation manifests,
/// where a misspelt key would otherwise be ignored without a word.
public struct StrictJSONObject {
    /// What is wrong with the file, with its path (and the key, where one is at fault).
    public typealias Failure = FileIO.Failure

    public let path: String
    private let object: [String: Any]
    /// The member path of this object inside the file (`benchmarks[2]`), for messages.
    private let at: String

    /// Reads the file as one JSON object.
    public init(path: String) throws(Failure) {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw Failure(path: path, reason: "cannot read the file")
        }
        guard let value = try? JSONSerialization.jsonObject(with: data), let object = value as? [String: Any] else {
            throw Failure(path: path, reason: "not a JSON object")
        }
        self.init(path: path, object: object, at: "")
    }

    private init(path: String, object: [String: Any], at: String) {
        self.path = path
        self.object = object
        self.at = at
    }

    /// Whether the key is present.
    public func has(_ key: String) -> Bool { object[key] != nil }

    private func name(_ key: String) -> String { at.isEmpty ? "'\(key)'" : "'\(at).\(key)'" }

    private func typed<T>(_ key: String, _ what: String) throws(Failure) -> T? {
        guard let v = object[key] else { return nil }
        guard let t = v as? T else { throw Failure(path: path, reason: "\(name(key)) must be \(what)") }
        return t
    }

    public func string(_ key: String) throws(Failure) -> String? { try typed(key, "a string") }

    public func requiredString(_ key: String) throws(Failure) -> String {
        guard let s: String = try typed(key, "a string"), !s.isEmpty else {
            throw Failure(path: path, reason: "missing key \(name(key))")
        }
        return s
    }

    public func strings(_ key: String) throws(Failure) -> [String]? { try typed(key, "an array of strings") }

    public func requiredStrings(_ key: String) throws(Failure) -> [String] {
        guard let s: [String] = try typed(key, "an array of strings"), !s.isEmpty else {
            throw Failure(path: path, reason: "missing key \(name(key)) (a non-empty array of strings)")
        }
        return s
    }

    public func bool(_ key: String) throws(Failure) -> Bool? {
        guard let v = object[key] else { return nil }
        guard let b = v as? Bool else { throw Failure(path: path, reason: "\(name(key)) must be true or false") }
        return b
    }

    public func number(_ key: String) throws(Failure) -> Double? {
        guard let v = object[key] else { return nil }
        guard let n = v as? NSNumber, n.doubleValue.isFinite else {
            throw Failure(path: path, reason: "\(name(key)) must be a number")
        }
        return n.doubleValue
    }

    public func stringMap(_ key: String) throws(Failure) -> [String: String]? {
        try typed(key, "an object of strings")
    }

    public func object(_ key: String) throws(Failure) -> StrictJSONObject? {
        guard let o: [String: Any] = try typed(key, "an object") else { return nil }
        return StrictJSONObject(path: path, object: o, at: at.isEmpty ? key : at + "." + key)
    }

    public func objects(_ key: String) throws(Failure) -> [StrictJSONObject]? {
        guard let a: [[String: Any]] = try typed(key, "an array of objects") else { return nil }
        let base = at.isEmpty ? key : at + "." + key
        return a.enumerated().map { StrictJSONObject(path: path, object: $0.element, at: "\(base)[\($0.offset)]") }
    }

    /// Fails on the first key (in sorted order) that is not among `known`.
    public func checkKeys(_ known: Set<String>) throws(Failure) {
        if let unknown = object.keys.sorted().first(where: { !known.contains($0) }) {
            throw Failure(path: path, reason: "unknown key \(name(unknown)); known keys: \(known.sorted().joined(separator: ", "))")
        }
    }
}
