import GraticuleSupport
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
}
