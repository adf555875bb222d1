#if canImport(Glibc)
@preconcurrency import Glibc  // stdout, read once at exit
#elseif canImport(Darwin)
@preconcurrency import Darwin
#endif
import ArgumentParser
import BenchKit
import Foundation
import GraticuleSupport
import Workloads

/// The whole `graticule` command line (`bench`, `conform`, `compare`, `report` and the
/// data commands) as a library, so that another package can run it with its own
/// implementations added beside graticule's:
///
/// ```swift
/// // main.swift of a package that depends on Graticule's GraticuleTool and Workloads
/// import GraticuleTool
/// import Workloads
///
/// var mine = Implementations()
/// try mine.add(geoJSONParser: MyParser(), name: "my.parser")
/// GraticuleTool.main(adding: mine)
/// ```
///
/// Registered implementations appear in `bench` (their results checked against
/// graticule's before they are timed) and, where a suite fits, in `conform`.
public enum GraticuleTool {
    /// The implementations the running command adds; set once by `main` before parsing.
    nonisolated(unsafe) static var added = Implementations()

    /// Parses the process's arguments, runs the command and exits. Exit codes: 0 success /
    /// no regression, 1 regression or failing conformance case, 2 bad input or usage
    /// (ArgumentParser's own usage errors are mapped to 2 as well).
    public static func main(adding implementations: Implementations = Implementations()) -> Never {
        added = implementations
        // An interrupted run stops the external programs it started (adapters, peers).
        LineProtocolProcess.stopAllOnInterrupt(cleanUp: {
            ScratchFolder.removeIfOwned()
            OutputFile.removeTemporaries()
        })
        do {
            var command: ParsableCommand
            do {
                command = try GraticuleCommand.parseAsRoot()
            } catch {
                // Read again with negative numbers made unambiguous (`NegativeArguments`);
                // the first error stands when that does not parse either.
                guard GraticuleCommand.exitCode(for: error) != .success,
                      let again = NegativeArguments.rewrite(Array(CommandLine.arguments.dropFirst())),
                      let parsed = try? GraticuleCommand.parseAsRoot(again) else { throw error }
                command = parsed
            }
            try command.run()
            exitCheckingOutput(0)
        } catch let code as ExitCode {
            exitCheckingOutput(code.rawValue)
        } catch {
            let code = GraticuleCommand.exitCode(for: error)
            if code == .success {
                print(GraticuleCommand.fullMessage(for: error))
                exitCheckingOutput(0)
            }
            var message = GraticuleCommand.fullMessage(for: error)
            if let meant = CommandSuggestion.nearest(arguments: Array(CommandLine.arguments.dropFirst())) {
                // The error and the command meant; the general usage lines say less.
                let error = message.split(separator: "\n", maxSplits: 1).first.map(String.init) ?? message
                let parent = meant.split(separator: " ").dropLast().joined(separator: " ")
                message = error + "\nDid you mean 'graticule \(meant)'? ('graticule \(parent.isEmpty ? "" : parent + " ")--help' lists the commands)"
            }
            FileHandle.standardError.write(Data(("graticule: " + message + "\n").utf8))
            exit(2)
        }
    }

    /// Writes `graticule: MESSAGE` to standard error and exits 2: for a program that runs
    /// the tool and cannot set it up.
    public static func fail(_ message: String) -> Never {
        LineProtocolProcess.waitIfInterrupted()
        FileHandle.standardError.write(Data(("graticule: " + message + "\n").utf8))
        exit(2)
    }

    /// Exits with `code` once everything printed has been written: when standard output
    /// could not take it all (a full disk, `> /dev/full`), the command did not do its job,
    /// so it exits 2 saying why instead of 0 with nothing written.
    static func exitCheckingOutput(_ code: Int32) -> Never {
        LineProtocolProcess.waitIfInterrupted()
        errno = 0
        let flushFailed = fflush(stdout) != 0
        let reason = errno != 0 ? String(cString: strerror(errno)) : "a write failed"
        if flushFailed || ferror(stdout) != 0 {
            FileHandle.standardError.write(Data("graticule: cannot write to standard output: \(reason)\n".utf8))
            exit(2)
        }
        exit(code)
    }
}
