#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Reads jemalloc's counters through `mallctl`, found at run time.
///
/// Nothing links jemalloc: timing runs under the allocator the process starts with (the
/// system's, what users ship). The allocation pass runs in a child process started with
/// jemalloc preloaded (see ``AllocationCounter``); there `mallctl` resolves and every
/// reading below works. In a process without jemalloc every reading is nil.
///
/// Everything here is internal: the runner turns the readings into `alloc_count`,
/// `alloc_bytes` and `peak_heap_bytes` metrics. Each reading is a few `mallctl` calls, so
/// the runner takes them around a whole sample, never per operation.
enum _Jemalloc {
    typealias Mallctl = @convention(c) (UnsafePointer<CChar>?, UnsafeMutableRawPointer?,
                                        UnsafeMutablePointer<Int>?, UnsafeMutableRawPointer?, Int) -> Int32
    typealias NameToMIB = @convention(c) (UnsafePointer<CChar>?, UnsafeMutablePointer<Int>?,
                                          UnsafeMutablePointer<Int>?) -> Int32
    typealias ByMIB = @convention(c) (UnsafePointer<Int>?, Int, UnsafeMutableRawPointer?,
                                      UnsafeMutablePointer<Int>?, UnsafeMutableRawPointer?, Int) -> Int32

    /// The symbol every library of the process resolves `name` to, or nil.
    static func globalSymbol(_ name: String) -> UnsafeMutableRawPointer? {
        #if os(Linux)
        return dlsym(UnsafeMutableRawPointer(bitPattern: 0), name)   // RTLD_DEFAULT
        #else
        return dlsym(UnsafeMutableRawPointer(bitPattern: -2), name)  // RTLD_DEFAULT
        #endif
    }

    /// jemalloc's control functions, when jemalloc is loaded into this process.
    struct API: @unchecked Sendable {
        let mallctl: Mallctl
        let nameToMIB: NameToMIB
        let byMIB: ByMIB
    }

    static let api: API? = {
        guard let a = globalSymbol("mallctl"), let b = globalSymbol("mallctlnametomib"),
              let c = globalSymbol("mallctlbymib") else { return nil }
        return API(mallctl: unsafeBitCast(a, to: Mallctl.self), nameToMIB: unsafeBitCast(b, to: NameToMIB.self),
                   byMIB: unsafeBitCast(c, to: ByMIB.self))
    }()

    static func mallctl(_ name: String, _ old: UnsafeMutableRawPointer?, _ oldLen: UnsafeMutablePointer<Int>?,
                        _ new: UnsafeMutableRawPointer?, _ newLen: Int) -> Int32 {
        guard let api else { return -1 }
        return api.mallctl(name, old, oldLen, new, newLen)
    }

    /// A reading of the calling thread's allocation counters.
    struct Snapshot: Equatable {
        /// Bytes this thread has allocated since it started (`thread.allocated`).
        var allocatedBytes: UInt64
        /// Bytes this thread has freed since it started (`thread.deallocated`).
        var deallocatedBytes: UInt64
        /// Allocation requests served by the thread's arena, small and large, after the
        /// thread cache has been flushed so its requests are merged in.
        var allocationCount: UInt64
    }

    /// `jemalloc` version string, or nil when malloc is not jemalloc.
    static let version: String? = {
        var ptr: UnsafePointer<CChar>? = nil
        var len = MemoryLayout<UnsafePointer<CChar>?>.size
        guard mallctl("version", &ptr, &len, nil, 0) == 0, let p = ptr else { return nil }
        return String(cString: p)
    }()

    /// True when the allocator in use really is jemalloc and its thread counters respond.
    /// A process can load jemalloc (say, as some library's dependency) and still allocate
    /// with glibc's malloc, so this checks that an allocation moves `thread.allocated`.
    static let isActive: Bool = {
        guard version != nil, let before = readUInt64("thread.allocated") else { return false }
        let block = [UInt8](repeating: 1, count: 8192)
        blackHole(block)
        let after = readUInt64("thread.allocated") ?? before
        return after >= before &+ 8192
    }()

    static func readUInt64(_ name: String) -> UInt64? {
        var value: UInt64 = 0
        var len = MemoryLayout<UInt64>.size
        return mallctl(name, &value, &len, nil, 0) == 0 ? value : nil
    }

    static func readUInt32(_ name: String) -> UInt32? {
        var value: UInt32 = 0
        var len = MemoryLayout<UInt32>.size
        return mallctl(name, &value, &len, nil, 0) == 0 ? value : nil
    }

    @discardableResult
    static func command(_ name: String) -> Bool {
        mallctl(name, nil, nil, nil, 0) == 0
    }

    /// Refreshes the statistics snapshot that `stats.*` reads return.
    static func refreshEpoch() {
        var newEpoch: UInt64 = 1
        var oldEpoch: UInt64 = 0
        var len = MemoryLayout<UInt64>.size
        _ = mallctl("epoch", &oldEpoch, &len, &newEpoch, MemoryLayout<UInt64>.size)
    }

    /// A control name resolved once to its numeric form, so that readings in the measured
    /// path allocate nothing (building a name string would itself allocate and be counted).
    final class MIB: @unchecked Sendable {
        var components: [Int]
        init?(_ name: String) {
            var mib = [Int](repeating: 0, count: 8)
            var len = mib.count
            guard let api = _Jemalloc.api, api.nameToMIB(name, &mib, &len) == 0 else { return nil }
            components = Array(mib[0..<len])
        }
        func readUInt64() -> UInt64? {
            var value: UInt64 = 0
            var len = MemoryLayout<UInt64>.size
            guard let api = _Jemalloc.api else { return nil }
            let rc = components.withUnsafeBufferPointer {
                api.byMIB($0.baseAddress, $0.count, &value, &len, nil, 0)
            }
            return rc == 0 ? value : nil
        }
        func run() {
            guard let api = _Jemalloc.api else { return }
            _ = components.withUnsafeBufferPointer { api.byMIB($0.baseAddress, $0.count, nil, nil, nil, 0) }
        }
    }

    /// Resolved names for the thread's arena. The runner measures on one thread, whose arena
    /// does not change, so this is resolved once.
    struct Probes: @unchecked Sendable {
        let allocated: MIB, deallocated: MIB, small: MIB, large: MIB, flush: MIB, epoch: MIB
        init?() {
            guard let arena = _Jemalloc.readUInt32("thread.arena"),
                  let a = MIB("thread.allocated"), let d = MIB("thread.deallocated"),
                  let s = MIB("stats.arenas.\(arena).small.nrequests"),
                  let l = MIB("stats.arenas.\(arena).large.nrequests"),
                  let f = MIB("thread.tcache.flush"), let e = MIB("epoch")
            else { return nil }
            allocated = a; deallocated = d; small = s; large = l; flush = f; epoch = e
        }
    }

    static let probes: Probes? = isActive ? Probes() : nil

    /// Takes a full reading. Flushes the thread cache first, which merges its request
    /// counts into the arena statistics, so the count is exact for this thread (other
    /// threads sharing the arena would add to it; the runner measures on one thread).
    /// Allocates nothing.
    static func snapshot() -> Snapshot? {
        guard let p = probes, let api else { return nil }
        p.flush.run()
        var newEpoch: UInt64 = 1
        var oldEpoch: UInt64 = 0
        var len = MemoryLayout<UInt64>.size
        _ = p.epoch.components.withUnsafeBufferPointer {
            api.byMIB($0.baseAddress, $0.count, &oldEpoch, &len, &newEpoch, MemoryLayout<UInt64>.size)
        }
        guard let allocated = p.allocated.readUInt64(), let deallocated = p.deallocated.readUInt64(),
              let small = p.small.readUInt64(), let large = p.large.readUInt64()
        else { return nil }
        return Snapshot(allocatedBytes: allocated, deallocatedBytes: deallocated,
                        allocationCount: small &+ large)
    }

    /// Resets the thread's peak-heap tracker (`thread.peak.reset`, jemalloc ≥ 5.3).
    static func resetPeak() -> Bool { isActive && command("thread.peak.reset") }

    /// The largest net heap growth of this thread since the last reset, in bytes.
    static func readPeak() -> UInt64? { isActive ? readUInt64("thread.peak.read") : nil }
}
