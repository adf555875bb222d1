#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Readings of a process from the operating system's process table (Linux `/proc`).
public enum ProcessStatus {
    /// Peak resident set size (`VmHWM`) of a process in bytes; nil where `/proc` is absent.
    /// The memory this process may use: the smaller of its address-space limit
    /// (`ulimit -v`, RLIMIT_AS) and the machine's physical memory; nil when neither can be
    /// read. A command that holds a known number of items refuses a request beyond it
    /// instead of failing an allocation.
    #if canImport(Glibc)
    static let addressSpace = __rlimit_resource_t(RLIMIT_AS.rawValue)
    #else
    static let addressSpace = RLIMIT_AS
    #endif

    public static func memoryBudgetBytes() -> UInt64? {
        var budget: UInt64? = nil
        var limit = rlimit()
        if getrlimit(Self.addressSpace, &limit) == 0, limit.rlim_cur != rlim_t.max { budget = UInt64(limit.rlim_cur) }
        let pages = sysconf(Int32(_SC_PHYS_PAGES)), size = sysconf(Int32(_SC_PAGESIZE))
        if pages > 0, size > 0 {
            let physical = UInt64(pages) * UInt64(size)
            budget = min(budget ?? physical, physical)
        }
        return budget
    }

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
