#if canImport(Glibc)
import Glibc
private let systemRead = Glibc.read
#elseif canImport(Darwin)
import Darwin
private let systemRead = Darwin.read
#endif

/// Where a streaming reader gets its bytes: a file, a socket, a decompressor, a test's
/// chunks. Results never depend on how the bytes are cut into reads.
public protocol JSONByteSource {
    /// Reads up to `buffer.count` bytes into `buffer` and returns how many; 0 means the end
    /// of the input.
    mutating func read(into buffer: UnsafeMutableRawBufferPointer) throws(JSONSourceError) -> Int

    /// Reads bytes at an absolute `offset` again, without disturbing `read`, and returns how
    /// many (0 at the end); nil when the source cannot (a pipe). Readers use it only to
    /// give the line and column of an error; sources that support it spare the readers
    /// from counting lines in every byte they pass.
    func reread(at offset: Int, into buffer: UnsafeMutableRawBufferPointer) -> Int?
}

extension JSONByteSource {
    public func reread(at offset: Int, into buffer: UnsafeMutableRawBufferPointer) -> Int? { nil }
}

/// A read failure of the byte source (not of the data).
public struct JSONSourceError: Error, Equatable, Sendable, CustomStringConvertible {
    public var message: String
    public init(_ message: String) { self.message = message }
    public var description: String { message }
}

/// Bytes in memory handed out at most `chunkSize` at a time (chunk-boundary tests, and
/// data that arrives in pieces).
public struct ChunkedByteSource: JSONByteSource {
    public let bytes: [UInt8]
    public let chunkSize: Int
    public private(set) var position = 0

    public init(_ bytes: [UInt8], chunkSize: Int) {
        precondition(chunkSize > 0, "chunk size must be positive")
        self.bytes = bytes
        self.chunkSize = chunkSize
    }

    public mutating func read(into buffer: UnsafeMutableRawBufferPointer) throws(JSONSourceError) -> Int {
        let n = min(buffer.count, chunkSize, bytes.count - position)
        guard n > 0 else { return 0 }
        bytes.withUnsafeBytes { src in
            // Safe: n bytes remain after `position` and fit in `buffer`.
            buffer.baseAddress!.copyMemory(from: src.baseAddress! + position, byteCount: n)
        }
        position += n
        return n
    }

    public func reread(at offset: Int, into buffer: UnsafeMutableRawBufferPointer) -> Int? {
        let n = max(0, min(buffer.count, bytes.count - offset))
        guard n > 0 else { return 0 }
        bytes.withUnsafeBytes { buffer.baseAddress!.copyMemory(from: $0.baseAddress! + offset, byteCount: n) }
        return n
    }
}

/// A file read with POSIX `read(2)`; the descriptor is closed when the last copy goes.
public final class FileByteSource: JSONByteSource {
    private let fd: Int32
    public let path: String

    /// Opens `path` for reading.
    ///
    /// - Throws: `JSONSourceError` naming the path and the system error.
    public init(path: String) throws(JSONSourceError) {
        let fd = open(path, O_RDONLY)
        guard fd >= 0 else { throw JSONSourceError("cannot open \(path): \(String(cString: strerror(errno)))") }
        var st = stat()
        if fstat(fd, &st) == 0 && (st.st_mode & S_IFMT) == S_IFDIR {
            close(fd)
            throw JSONSourceError("\(path): is a directory, not a GeoJSON file")
        }
        self.fd = fd
        self.path = path
    }

    /// The bytes `read` has handed out so far: the size of a pipe's input once it is
    /// read to the end.
    public private(set) var bytesRead = 0

    deinit { close(fd) }

    /// The file's size in bytes, nil when it cannot be told (a pipe).
    public var size: Int? {
        var st = stat()
        guard fstat(fd, &st) == 0, (st.st_mode & S_IFMT) == S_IFREG else { return nil }
        return Int(st.st_size)
    }

    /// Moves the read position to `offset` (a regular file only; `read` goes on from
    /// there, `bytesRead` counts from there).
    package func seek(to offset: Int) throws(JSONSourceError) {
        guard size != nil, pending.isEmpty, lseek(fd, off_t(offset), SEEK_SET) == off_t(offset) else {
            throw JSONSourceError("\(path): cannot be read from byte \(offset) (not a regular file)")
        }
    }

    public func reread(at offset: Int, into buffer: UnsafeMutableRawBufferPointer) -> Int? {
        guard size != nil else { return nil }      // pipes and sockets cannot seek
        if buffer.count == 0 { return 0 }
        let n = pread(fd, buffer.baseAddress, buffer.count, off_t(offset))
        return n >= 0 ? n : nil
    }

    /// Bytes read ahead by `peek` from a source that cannot seek, handed out first.
    private var pending: [UInt8] = []
    private var pendingStart = 0

    /// The first bytes of the input (up to `count`), without consuming them: a file is read
    /// at offset 0, a pipe or `/dev/stdin` is read ahead once and `read` hands those bytes
    /// out first, so the input is read exactly once and nothing is lost. Call it before the
    /// first `read`.
    public func peek(_ count: Int) -> [UInt8] {
        if size != nil {
            var head = [UInt8](repeating: 0, count: max(count, 0))
            let n = head.withUnsafeMutableBytes { reread(at: 0, into: $0) } ?? 0
            return Array(head.prefix(n))
        }
        guard bytesRead == 0 else { return Array(pending[pendingStart...].prefix(count)) }
        var ahead = pending
        var chunk = [UInt8](repeating: 0, count: min(max(count, 1), 65_536))
        while ahead.count < count {
            let want = min(chunk.count, count - ahead.count)
            let n = chunk.withUnsafeMutableBytes { raw -> Int in
                while true {
                    let r = systemRead(fd, raw.baseAddress, want)
                    if r >= 0 || errno != EINTR { return r }
                }
            }
            if n <= 0 { break }     // the end, or an error `read` will report again
            ahead += chunk[0..<n]
        }
        pending = ahead
        pendingStart = 0
        return Array(ahead.prefix(count))
    }

    public func read(into buffer: UnsafeMutableRawBufferPointer) throws(JSONSourceError) -> Int {
        if pendingStart < pending.count {
            let n = min(buffer.count, pending.count - pendingStart)
            pending.withUnsafeBytes { buffer.baseAddress!.copyMemory(from: $0.baseAddress! + pendingStart, byteCount: n) }
            pendingStart += n
            bytesRead += n
            if pendingStart == pending.count { pending = []; pendingStart = 0 }
            return n
        }
        while true {
            let n = systemRead(fd, buffer.baseAddress, buffer.count)
            if n >= 0 { bytesRead += n; return n }
            if errno == EINTR { continue }
            throw JSONSourceError("cannot read \(path): \(String(cString: strerror(errno)))")
        }
    }
}
