#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Readings of a process from the operating system's process table (Linux `/proc`).
public enum ProcessStatus {
    /// Peak resident set size (`VmHWM`) of a process in bytes; nil where `/proc` is absent.
    public static func peakResidentBytes(pid: String = "self") -> UInt64? {
        field("VmHWM", pid: pid)
    }

    /// A `kB` field of `/proc/PID/status` in bytes.
    public static func field(_ name: String, pid: String = "self") -> UInt64? {
        guard let text = readSmallFile("/proc/\(pid)/status") else { return nil }
        for line in text.split(separator: "\n") where line.hasPrefix(name + ":") {
            let parts = line.split(whereSeparator: { $0 == " " || $0 == "\t" })
            guard parts.count >= 2, let kb = UInt64(parts[1]) else { return nil }
            return kb * 1024
        }
        return nil
    }

    /// A small text file read to its end (procfs files report size 0).
    public static func readSmallFile(_ path: String) -> String? {
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
