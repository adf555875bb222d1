/// The metrics a run records. Names carry their unit; values are per operation unless the
/// name says otherwise.
public enum Metric: String, CaseIterable, Sendable {
    /// Wall-clock nanoseconds per operation.
    case timeNs = "time_ns"
    /// Dataset megabytes (10^6 bytes) processed per second.
    case throughputMBPerS = "throughput_mb_per_s"
    /// Dataset items processed per second.
    case throughputItemsPerS = "throughput_items_per_s"
    /// Heap allocations per operation (jemalloc request counts).
    case allocCount = "alloc_count"
    /// Bytes allocated per operation (jemalloc `thread.allocated`).
    case allocBytes = "alloc_bytes"
    /// Largest net heap growth during one operation (jemalloc `thread.peak`). jemalloc
    /// updates the peak every 64 KiB allocated, so growth below that reads as 0 and the
    /// reading depends on where an operation falls in that window: reported, not gated.
    case peakHeapBytes = "peak_heap_bytes"
    /// Peak resident set size of the measuring process while the case ran (Linux VmHWM,
    /// reset before the case). Process-wide: it includes the datasets the run holds.
    case peakResidentBytes = "peak_resident_bytes"
    /// Instructions per operation, counted by valgrind's callgrind (`--instructions`).
    case instructions = "instructions"

    /// True when a smaller value is better.
    public var lowerIsBetter: Bool {
        switch self {
        case .throughputMBPerS, .throughputItemsPerS: return false
        default: return true
        }
    }

    /// Deterministic metrics are compared exactly (no significance test).
    public var isExact: Bool {
        switch self {
        case .instructions, .allocCount, .allocBytes: return true
        default: return false
        }
    }

    /// Default gating threshold, as a relative change (0.05 = 5%); nil when the metric is
    /// reported but not gated (throughput is derived from time; resident memory is
    /// process-wide; the heap peak is sampled by jemalloc every 64 KiB).
    public var defaultThreshold: Double? {
        switch self {
        case .timeNs: return 0.05
        case .instructions, .allocCount, .allocBytes: return 0.02
        case .throughputMBPerS, .throughputItemsPerS, .peakResidentBytes, .peakHeapBytes: return nil
        }
    }
}
