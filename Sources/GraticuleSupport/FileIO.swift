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

    /// The whole content of the file at `path`, which may be a pipe or `/dev/stdin` (read
    /// once, to its end).
    ///
    /// - Throws: `Failure` saying why: no such file, a directory, or a read error.
    public static func readAll(_ path: String) throws -> [UInt8] {
        var isDir: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDir) else {
            throw Failure(path: path, reason: "no such file")
        }
        if isDir.boolValue { throw Failure(path: path, reason: "is a directory, not a file") }
        let fd = open(path, O_RDONLY)
        guard fd >= 0 else { throw Failure(path: path, reason: "cannot read file: \(String(cString: strerror(errno)))") }
        defer { close(fd) }
        // Read to the end whatever the size says: a pipe or /dev/stdin reports 0.
        var st = stat()
        let expected = fstat(fd, &st) == 0 && (st.st_mode & S_IFMT) == S_IFREG ? Int(st.st_size) : 0
        var out = [UInt8]()
        out.reserveCapacity(expected + 1)
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let n = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if n == 0 { break }
            if n < 0 {
                if errno == EINTR { continue }
                throw Failure(path: path, reason: "read failed: \(String(cString: strerror(errno)))")
            }
            out += chunk.prefix(n)
        }
        return out
    }

    public static func readText(_ path: String) throws -> String {
        String(decoding: try readAll(path), as: UTF8.self)
    }

    /// Writes `bytes` to `path` whole or not at all (`OutputFile`): a regular file is
    /// replaced only once every byte is on disk, a FIFO or device is written through with
    /// every write checked, and a missing folder is an error.
    public static func writeAll(_ path: String, _ bytes: [UInt8]) throws {
        let out = try OutputFile(path: path)
        try out.write(bytes)
        try out.commit()
    }

    public static func writeText(_ path: String, _ text: String) throws {
        try writeAll(path, Array(text.utf8))
    }

    /// Writes several files whole or not at all as a set: when any of them cannot be
    /// written, flushed or put in place, none of the targets changes (the renames, the only
    /// step left once all are flushed, do not fail for want of space).
    ///
    /// - Throws: `FileIO.Failure` naming the file that failed.
    public static func writeAll(_ files: [(path: String, bytes: [UInt8])]) throws {
        var outputs: [OutputFile] = []
        do {
            for f in files {
                let out = try OutputFile(path: f.path)
                outputs.append(out)
                try out.write(f.bytes)
            }
        } catch {
            for o in outputs { o.abandon() }
            throw error
        }
        try OutputFile.commitAll(outputs)
    }

    /// Fails when a file could not be written at `path` (a directory there, a missing
    /// folder, or no write permission in its folder), without creating anything: commands call
    /// it before long work, so a bad output path stops them at once and leaves no file.
    public static func checkWritable(_ path: String) throws {
        var isDir: ObjCBool = false
        if FileManager.default.fileExists(atPath: path, isDirectory: &isDir) {
            guard !isDir.boolValue else { throw Failure(path: path, reason: "is a directory") }
            // A FIFO or device is written through later; opening a FIFO now would wait for
            // its reader.
            guard let type = try? FileManager.default.attributesOfItem(atPath: path)[.type] as? FileAttributeType,
                  type == .typeRegular else { return }
            // Opened for writing, not truncated: permission bits do not tell root the answer.
            guard let handle = FileHandle(forWritingAtPath: path) else { throw Failure(path: path, reason: "cannot be written") }
            try? handle.close()
            return
        }
        let folder = OutputFile.folder(of: OutputFile.resolvingLinks(path))
        guard FileManager.default.fileExists(atPath: folder, isDirectory: &isDir), isDir.boolValue else {
            throw Failure(path: path, reason: "its folder \(folder) does not exist")
        }
        // A probe file, created and removed at once (permission bits do not tell root the
        // answer, and file systems such as /proc refuse new files whatever the bits say).
        let probe = folder + "/.graticule-write-probe-\(ProcessInfo.processInfo.processIdentifier)"
        guard FileManager.default.createFile(atPath: probe, contents: nil) else {
            throw Failure(path: path, reason: "its folder \(folder) cannot be written")
        }
        try? FileManager.default.removeItem(atPath: probe)
    }

    public static func exists(_ path: String) -> Bool {
        FileManager.default.fileExists(atPath: path)
    }
}
