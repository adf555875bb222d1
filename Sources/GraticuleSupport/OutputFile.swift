#if canImport(Glibc)
import Glibc
private let systemWrite = Glibc.write
#elseif canImport(Darwin)
import Darwin
private let systemWrite = Darwin.write
#endif

/// A command's output file, either written whole or not at all.
///
/// For a regular file (or a path that does not exist yet) the bytes go to a temporary file
/// beside the target, which `commit()` flushes to disk and renames over the target: a
/// reader never sees half a file, and on any failure the target is left as it was. A
/// symbolic link is followed and its target replaced, so the link stays a link. A FIFO, a
/// character or block device or a socket is written through (it cannot be replaced), with
/// every write checked: `/dev/full` is an error, not a success. A missing folder is an
/// error, not created.
///
/// ```swift
/// let out = try OutputFile(path: "tiles.txt")
/// try out.write(Array("0/0/0\n".utf8))
/// try out.commit()
/// ```
public final class OutputFile {
    /// The path given.
    public let path: String
    /// Where the bytes finally land (the link's target for a symbolic link).
    public let target: String
    /// Whether the target is written through (not a regular file).
    public let writesThrough: Bool
    private let temporary: String?
    private var fd: Int32
    private var finished = false
    /// Bytes written so far.
    public private(set) var count = 0

    /// Opens the output.
    ///
    /// - Throws: `FileIO.Failure` when the target is a directory, its folder does not exist
    ///   or cannot be written, or it cannot be opened.
    public init(path: String) throws {
        self.path = path
        let target = Self.resolvingLinks(path)
        self.target = target
        var st = stat()
        let exists = stat(target, &st) == 0
        let kind = st.st_mode & S_IFMT
        if exists && kind == S_IFDIR { throw FileIO.Failure(path: path, reason: "is a directory") }
        if exists && kind != S_IFREG {
            // A FIFO, a device or a socket: written through.
            let fd = open(target, O_WRONLY)
            guard fd >= 0 else { throw FileIO.Failure(path: path, reason: "cannot be opened for writing: \(Self.errorText())") }
            self.fd = fd
            writesThrough = true
            temporary = nil
            return
        }
        let folder = Self.folder(of: target)
        var fst = stat()
        guard stat(folder, &fst) == 0, (fst.st_mode & S_IFMT) == S_IFDIR else {
            throw FileIO.Failure(path: path, reason: "its folder \(folder) does not exist")
        }
        let temporary = Self.temporaryPath(for: target)
        let fd = open(temporary, O_WRONLY | O_CREAT | O_EXCL, 0o666)
        guard fd >= 0 else { throw FileIO.Failure(path: path, reason: "its folder \(folder) cannot be written: \(Self.errorText())") }
        // A file that is replaced keeps its permissions.
        if exists { _ = fchmod(fd, st.st_mode & 0o7777) }
        self.fd = fd
        self.temporary = temporary
        writesThrough = false
        Self.temporaries.add(temporary)
    }

    /// Standard output as an `OutputFile`: written through with every write checked (a full
    /// disk is an error, not a silent loss); `commit()` leaves the descriptor open. Flush
    /// anything printed with `print` first, so the two stay in order.
    public static func standardOutput() -> OutputFile { OutputFile(standardOutput: ()) }

    private init(standardOutput: Void) {
        path = "standard output"
        target = "/dev/stdout"
        writesThrough = true
        temporary = nil
        fd = 1
        keepsOpen = true
    }

    /// Whether `commit()` leaves the descriptor open (standard output).
    private var keepsOpen = false

    deinit { if !finished { abandon() } }

    /// Appends `bytes`, all of them or a failure.
    ///
    /// - Throws: `FileIO.Failure` naming the path and the system's reason (a full disk, a
    ///   closed pipe).
    public func write(_ bytes: UnsafeRawBufferPointer) throws {
        guard !finished else { throw FileIO.Failure(path: path, reason: "written after it was closed") }
        var done = 0
        while done < bytes.count {
            let n = systemWrite(fd, bytes.baseAddress! + done, bytes.count - done)
            if n < 0 {
                if errno == EINTR { continue }
                throw FileIO.Failure(path: path, reason: "write failed: \(Self.errorText())")
            }
            if n == 0 { throw FileIO.Failure(path: path, reason: "write failed: nothing written") }
            done += n
        }
        count += bytes.count
    }

    public func write(_ bytes: [UInt8]) throws {
        try bytes.withUnsafeBytes { try write($0) }
    }

    public func write(_ text: String) throws {
        var t = text
        try t.withUTF8 { try write(UnsafeRawBufferPointer($0)) }
    }

    /// Flushes the bytes to disk and puts the file in place (renames the temporary file
    /// over the target); for a written-through target, closes it, reporting a failed close.
    public func commit() throws {
        guard !finished else { return }
        do { try flush() } catch { abandon(); throw error }
        finished = true
        if let temporary {
            defer {
                if FileIO.exists(temporary) { unlink(temporary) }
                Self.temporaries.remove(temporary)
            }
            guard rename(temporary, target) == 0 else {
                throw FileIO.Failure(path: path, reason: "cannot be put in place: \(Self.errorText())")
            }
        }
    }

    /// Whether the bytes are on disk and the descriptor closed (`flush()`).
    private var flushed = false

    /// Flushes the bytes to disk and closes the file without putting it in place yet: the
    /// step of `commit()` that can fail for want of space, so that several outputs can all
    /// be flushed before any replaces its target (`commitAll`). A written-through target is
    /// closed.
    public func flush() throws {
        guard !finished, !flushed else { return }
        flushed = true
        if temporary != nil {
            guard fsync(fd) == 0 else {
                let reason = Self.errorText()
                close(fd)
                throw FileIO.Failure(path: path, reason: "cannot be flushed to disk: \(reason)")
            }
            guard close(fd) == 0 else { throw FileIO.Failure(path: path, reason: "close failed: \(Self.errorText())") }
        } else if !keepsOpen {
            guard close(fd) == 0 else { throw FileIO.Failure(path: path, reason: "close failed: \(Self.errorText())") }
        }
    }

    /// Puts several outputs in place as a set: all are flushed first, and when any fails
    /// every one is abandoned, so no target changes; then each is renamed over its target.
    public static func commitAll(_ outputs: [OutputFile]) throws {
        do {
            for o in outputs { try o.flush() }
        } catch {
            for o in outputs { o.abandon() }
            throw error
        }
        for o in outputs { try o.commit() }
    }

    /// Gives up: the temporary file is removed and the target left as it was.
    public func abandon() {
        guard !finished else { return }
        finished = true
        if !keepsOpen && !flushed { close(fd) }
        if let temporary {
            unlink(temporary)
            Self.temporaries.remove(temporary)
        }
    }

    /// A file that a writer needs a path for (a SQLite database, an archive written with
    /// positioned writes), made whole or not at all: `build` writes it at a temporary path
    /// beside `path`, then it is flushed to disk and renamed over `path` (a symbolic link's
    /// target). On any error the temporary file is removed and the error rethrown.
    ///
    /// - Throws: `FileIO.Failure` when `path` is a directory, its folder does not exist, or
    ///   the file cannot be flushed or put in place; or what `build` throws.
    public static func build(_ path: String, _ build: (String) throws -> Void) throws {
        let target = resolvingLinks(path)
        var st = stat()
        if stat(target, &st) == 0 && (st.st_mode & S_IFMT) == S_IFDIR { throw FileIO.Failure(path: path, reason: "is a directory") }
        let folder = Self.folder(of: target)
        guard stat(folder, &st) == 0, (st.st_mode & S_IFMT) == S_IFDIR else {
            throw FileIO.Failure(path: path, reason: "its folder \(folder) does not exist")
        }
        let temporary = temporaryPath(for: target)
        temporaries.add(temporary)
        defer {
            for suffix in _TemporaryFiles.companions where FileIO.exists(temporary + suffix) { unlink(temporary + suffix) }
            temporaries.remove(temporary)
        }
        try build(temporary)
        let fd = open(temporary, O_RDONLY)
        guard fd >= 0 else { throw FileIO.Failure(path: path, reason: "cannot be reopened: \(errorText())") }
        defer { close(fd) }
        guard fsync(fd) == 0 else { throw FileIO.Failure(path: path, reason: "cannot be flushed to disk: \(errorText())") }
        guard rename(temporary, target) == 0 else { throw FileIO.Failure(path: path, reason: "cannot be put in place: \(errorText())") }
    }

    /// Builds a command's output folder whole or not at all: `build` fills a new folder
    /// beside `path`, which is renamed into place when it returns; on an error, or a signal
    /// handled by `removeTemporaries()`, the new folder and everything in it is removed.
    /// `path` must not exist yet or be an empty folder (which it replaces): files are never
    /// mixed into a folder that holds others, and no folder is left half written.
    ///
    /// - Throws: `FileIO.Failure` when `path` is a file or a folder holding files, when its
    ///   parent folder does not exist or cannot be written; what `build` throws.
    public static func buildFolder(_ path: String, _ build: (String) throws -> Void) throws {
        var st = stat()
        let exists = lstat(path, &st) == 0
        if exists {
            guard (st.st_mode & S_IFMT) == S_IFDIR else { throw FileIO.Failure(path: path, reason: "exists and is not a folder") }
            guard _TemporaryFiles.isEmptyFolder(path) else {
                throw FileIO.Failure(path: path, reason: "is a folder that already holds files; give a new (or empty) folder")
            }
        }
        let folder = Self.folder(of: path)
        guard stat(folder, &st) == 0, (st.st_mode & S_IFMT) == S_IFDIR else {
            throw FileIO.Failure(path: path, reason: "its folder \(folder) does not exist")
        }
        let temporary = temporaryPath(for: path)
        guard mkdir(temporary, 0o777) == 0 else {
            throw FileIO.Failure(path: path, reason: "its folder \(folder) cannot be written: \(errorText())")
        }
        temporaries.add(temporary)
        var placed = false
        defer {
            if !placed { _TemporaryFiles.unlinkAll(temporary) }
            temporaries.remove(temporary)
        }
        try build(temporary)
        if exists { rmdir(path) }
        guard rename(temporary, path) == 0 else { throw FileIO.Failure(path: path, reason: "cannot be put in place: \(errorText())") }
        placed = true
    }

    /// Temporary files of outputs not yet committed or abandoned, for `removeTemporaries()`.
    static let temporaries = _TemporaryFiles()

    /// Removes the temporary file of every output not yet put in place (and any that is
    /// registered later in this process): for a handler of SIGINT or SIGTERM, which then
    /// exits, so that an interrupted command leaves no partial file and every target as it
    /// was. Safe to call from any thread.
    public static func removeTemporaries() { temporaries.removeAll() }

    /// A fresh name beside `target` for the bytes on their way to it.
    static func temporaryPath(for target: String) -> String {
        let folder = Self.folder(of: target)
        let name = target.split(separator: "/", omittingEmptySubsequences: false).last.map(String.init) ?? "output"
        return (folder == "." && !target.hasPrefix("./") ? "" : folder + "/")
            + ".\(name).partial-\(getpid())-\(String(UInt32.random(in: 0...UInt32.max), radix: 16))"
    }

    /// `path` with its symbolic links followed (at most 40), as far as they lead.
    static func resolvingLinks(_ path: String) -> String {
        var p = path
        for _ in 0..<40 {
            var buffer = [CChar](repeating: 0, count: 4097)
            let n = readlink(p, &buffer, 4096)
            guard n > 0 else { return p }
            let link = String(decoding: buffer.prefix(n).map { UInt8(bitPattern: $0) }, as: UTF8.self)
            p = link.hasPrefix("/") ? link : folder(of: p) + "/" + link
        }
        return p
    }

    /// The folder part of `path` ("." when it has none).
    public static func folder(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return "." }
        let f = String(path[..<slash])
        return f.isEmpty ? "/" : f
    }

    static func errorText() -> String { String(cString: strerror(errno)) }
}


/// The set of temporary output files, guarded by a lock (the interrupt handler runs on
/// another thread than the writer).
final class _TemporaryFiles: @unchecked Sendable {
    /// Files a writer may create beside its database (SQLite's journals).
    static let companions = ["", "-journal", "-wal", "-shm"]
    private var paths: Set<String> = []
    private var removed = false
    private let lock: UnsafeMutablePointer<pthread_mutex_t> = {
        let m = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
        pthread_mutex_init(m, nil)
        return m
    }()

    private func locked<R>(_ body: () -> R) -> R {
        pthread_mutex_lock(lock)
        defer { pthread_mutex_unlock(lock) }
        return body()
    }

    func add(_ path: String) {
        // After an interrupt, a file created on the way out goes at once.
        let late = locked { () -> Bool in
            if !removed { paths.insert(path) }
            return removed
        }
        if late { Self.unlinkAll(path) }
    }

    func remove(_ path: String) { _ = locked { paths.remove(path) } }

    func removeAll() {
        let all = locked { () -> Set<String> in
            removed = true
            defer { paths.removeAll() }
            return paths
        }
        for p in all { Self.unlinkAll(p) }
    }

    /// Removes `path` and its companions; a temporary folder (`OutputFile.buildFolder`) is
    /// removed with everything in it.
    static func unlinkAll(_ path: String) {
        var st = stat()
        if lstat(path, &st) == 0 && (st.st_mode & S_IFMT) == S_IFDIR {
            removeTree(path)
            return
        }
        for suffix in companions { unlink(path + suffix) }
    }

    /// Removes a folder and everything below it (links are removed, never followed).
    static func removeTree(_ path: String) {
        guard let dir = opendir(path) else { unlink(path); return }
        var names: [String] = []
        while let entry = readdir(dir) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                String(decoding: raw.prefix(while: { $0 != 0 }), as: UTF8.self)
            }
            if name != "." && name != ".." { names.append(name) }
        }
        closedir(dir)
        for name in names {
            let child = path + "/" + name
            var st = stat()
            if lstat(child, &st) == 0 && (st.st_mode & S_IFMT) == S_IFDIR { removeTree(child) } else { unlink(child) }
        }
        rmdir(path)
    }

    /// Whether `path` is a folder with nothing in it.
    static func isEmptyFolder(_ path: String) -> Bool {
        guard let dir = opendir(path) else { return false }
        defer { closedir(dir) }
        while let entry = readdir(dir) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                String(decoding: raw.prefix(while: { $0 != 0 }), as: UTF8.self)
            }
            if name != "." && name != ".." { return false }
        }
        return true
    }
}
