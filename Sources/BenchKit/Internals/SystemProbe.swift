#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Process-level readings from the operating system.
enum _SystemProbe {
    /// Monotonic clock in nanoseconds.
    @inline(__always)
    static func nowNanoseconds() -> UInt64 {
        var ts = timespec()
        clock_gettime(CLOCK_MONOTONIC, &ts)
        return UInt64(ts.tv_sec) &* 1_000_000_000 &+ UInt64(ts.tv_nsec)
    }

    /// Resets the kernel's peak-resident-set counter of this process (Linux
    /// `/proc/self/clear_refs` value 5). Returns false where that is not possible.
    static func resetPeakResident() -> Bool {
        #if os(Linux)
        let fd = open("/proc/self/clear_refs", O_WRONLY)
        guard fd >= 0 else { return false }
        defer { close(fd) }
        let ok = "5".withCString { write(fd, $0, 1) } == 1
        return ok
        #else
        return false
        #endif
    }

    /// Peak resident set size (VmHWM) of a process in bytes, from /proc.
    static func peakResidentBytes(pid: String = "self") -> UInt64? {
        statusField("VmHWM", pid: pid)
    }

    static func statusField(_ field: String, pid: String) -> UInt64? {
        guard let text = readSmallFile("/proc/\(pid)/status") else { return nil }
        for line in text.split(separator: "\n") where line.hasPrefix(field + ":") {
            let parts = line.split(whereSeparator: { $0 == " " || $0 == "\t" })
            guard parts.count >= 2, let kb = UInt64(parts[1]) else { return nil }
            return kb * 1024
        }
        return nil
    }

    /// Reads a small text file (procfs files report size 0, so this reads until EOF).
    static func readSmallFile(_ path: String) -> String? {
        let fd = open(path, O_RDONLY)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 4096)
        while true {
            let n = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress, 4096) }
            if n <= 0 { break }
            bytes.append(contentsOf: chunk[0..<n])
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}
