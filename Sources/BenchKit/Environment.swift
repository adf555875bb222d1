import GraticuleSupport
import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Collects the run metadata from the machine and the build.
public enum RunEnvironment {
    /// `release` or `debug`, as this module was compiled.
    public static var buildConfiguration: String {
        #if DEBUG
        return "debug"
        #else
        return "release"
        #endif
    }

    public static var toolchain: String {
        #if compiler(>=6.5)
        return "swift-6.5+"
        #elseif compiler(>=6.4)
        return "swift-6.4"
        #elseif compiler(>=6.3)
        return "swift-6.3"
        #elseif compiler(>=6.2)
        return "swift-6.2"
        #elseif compiler(>=6.1)
        return "swift-6.1"
        #else
        return "swift-6.0"
        #endif
    }

    /// The allocator this process runs with: `jemalloc VERSION` when jemalloc is preloaded,
    /// otherwise the system's (`glibc VERSION malloc` on Linux).
    public static var allocator: String {
        if let v = AllocationCounter.versionInThisProcess { return v }
        #if canImport(Glibc)
        typealias Version = @convention(c) () -> UnsafePointer<CChar>?
        if let f = _Jemalloc.globalSymbol("gnu_get_libc_version"),
           let v = unsafeBitCast(f, to: Version.self)() {
            return "glibc " + String(cString: v) + " malloc"
        }
        return "system malloc"
        #else
        return "system malloc"
        #endif
    }

    public static func collect(runID: String? = nil, directory: String = ".") -> RunMetadata {
        let now = Date()
        let fmt = ISO8601DateFormatter()
        fmt.formatOptions = [.withInternetDateTime]
        fmt.timeZone = TimeZone(identifier: "UTC")
        let id = runID ?? {
            var rng = SystemRandomNumberGenerator()
            return String(format: "%016llx", rng.next() as UInt64)
        }()
        let commit = shell(["git", "-C", directory, "rev-parse", "HEAD"]) ?? "unknown"
        let dirty = !(shell(["git", "-C", directory, "status", "--porcelain", "--untracked-files=no"]) ?? "").isEmpty
        var cpu = "unknown"
        if let info = ProcessStatus.readSmallFile("/proc/cpuinfo"),
           let line = info.split(separator: "\n").first(where: { $0.hasPrefix("model name") }),
           let colon = line.firstIndex(of: ":") {
            cpu = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
        }
        var os = ProcessInfo.processInfo.operatingSystemVersionString
        if let rel = ProcessStatus.readSmallFile("/etc/os-release"),
           let line = rel.split(separator: "\n").first(where: { $0.hasPrefix("PRETTY_NAME=") }) {
            os = line.dropFirst("PRETTY_NAME=".count).trimmingCharacters(in: CharacterSet(charactersIn: "\""))
        }
        var uts = utsname()
        uname(&uts)
        let kernel = withUnsafeBytes(of: &uts.release) { raw in
            String(decoding: raw.prefix(while: { $0 != 0 }), as: UTF8.self)
        }
        let load = ProcessStatus.readSmallFile("/proc/loadavg")?.split(separator: " ").prefix(3)
            .joined(separator: " ") ?? "unknown"
        return RunMetadata(runID: id, timestamp: fmt.string(from: now), gitCommit: commit,
                           gitDirty: dirty, toolchain: toolchain, buildConfiguration: buildConfiguration,
                           cpuModel: cpu, cpuCount: ProcessInfo.processInfo.activeProcessorCount,
                           os: os, kernel: kernel, loadAverage: load, allocator: allocator)
    }

    /// Runs a command and returns its trimmed stdout, or nil when it fails.
    public static func shell(_ args: [String]) -> String? {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        p.arguments = args
        let out = Pipe()
        p.standardOutput = out
        p.standardError = FileHandle.nullDevice
        do { try p.run() } catch { return nil }
        let data = out.fileHandleForReading.readDataToEndOfFile()
        p.waitUntilExit()
        guard p.terminationStatus == 0 else { return nil }
        return String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
    }
}
