import Foundation

/// Whole-file reads and writes for datasets, reports and command output (outside any
/// measured region).
public enum FileIO {
    public struct Failure: Error, CustomStringConvertible {
        public let path: String
        public let reason: String
        public var description: String { "\(path): \(reason)" }
        public init(path: String, reason: String) {
            self.path = path
            self.reason = reason
        }
    }

    public static func readAll(_ path: String) throws -> [UInt8] {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw Failure(path: path, reason: "cannot read file")
        }
        return [UInt8](data)
    }

    public static func readText(_ path: String) throws -> String {
        String(decoding: try readAll(path), as: UTF8.self)
    }

    public static func writeAll(_ path: String, _ bytes: [UInt8]) throws {
        let dir = (path as NSString).deletingLastPathComponent
        if !dir.isEmpty {
            try? FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        }
        guard FileManager.default.createFile(atPath: path, contents: Data(bytes)) else {
            throw Failure(path: path, reason: "cannot write file")
        }
    }

    public static func writeText(_ path: String, _ text: String) throws {
        try writeAll(path, Array(text.utf8))
    }

    public static func exists(_ path: String) -> Bool {
        FileManager.default.fileExists(atPath: path)
    }
}
