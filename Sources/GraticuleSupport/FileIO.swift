import Foundation

/// Whole-file reads and writes for datasets, reports and command output (outside any
/// measured region).
public enum FileIO {
    public struct Failure: Error, Equatable, CustomStringConvertible {
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

    /// Fails when a file could not be written at `path` (a directory there, or no write
    /// permission in the nearest existing folder), without creating anything: commands call
    /// it before long work, so a bad output path stops them at once and leaves no file.
    public static func checkWritable(_ path: String) throws {
        var isDir: ObjCBool = false
        if FileManager.default.fileExists(atPath: path, isDirectory: &isDir) {
            guard !isDir.boolValue else { throw Failure(path: path, reason: "is a directory") }
            // Opened for writing, not truncated: permission bits do not tell root the answer.
            guard let handle = FileHandle(forWritingAtPath: path) else { throw Failure(path: path, reason: "cannot be written") }
            try? handle.close()
            return
        }
        var dir = (path as NSString).deletingLastPathComponent
        while !dir.isEmpty, !FileManager.default.fileExists(atPath: dir, isDirectory: &isDir) {
            dir = (dir as NSString).deletingLastPathComponent
        }
        let folder = dir.isEmpty ? "." : dir
        // A probe file, created and removed at once (permission bits do not tell root the
        // answer, and file systems such as /proc refuse new files whatever the bits say).
        let probe = folder + "/.graticule-write-probe-\(ProcessInfo.processInfo.processIdentifier)"
        guard FileManager.default.fileExists(atPath: folder, isDirectory: &isDir), isDir.boolValue,
              FileManager.default.createFile(atPath: probe, contents: nil) else {
            throw Failure(path: path, reason: "its folder \(folder) cannot be written")
        }
        try? FileManager.default.removeItem(atPath: probe)
    }

    public static func exists(_ path: String) -> Bool {
        FileManager.default.fileExists(atPath: path)
    }
}
