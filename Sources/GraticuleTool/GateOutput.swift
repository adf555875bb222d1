import BenchKit
import Foundation
import GraticuleSupport

/// A gate's comparison: its findings and their Markdown, then the files to write and the
/// printed verdict with the exit code.
struct GateRun {
    let gate: Gate
    let findings: [Gate.Finding]
    let markdown: String

    /// Compares `head` with `base`; exits 2 when they cannot be compared.
    init(base: RunReport, head: RunReport, gate: Gate) {
        self.gate = gate
        do { findings = try gate.compare(base: base, head: head) } catch { fail("\(error)") }
        markdown = Gate.markdown(findings, base: base.metadata, head: head.metadata)
    }

    /// The Markdown and the verdicts CSV as files, for the command to write with its others.
    func files(markdown path: String?, verdicts: String?) -> [(path: String, bytes: [UInt8])] {
        var out: [(path: String, bytes: [UInt8])] = []
        if let path { out.append((path, Array(markdown.utf8))) }
        if let verdicts { out.append((verdicts, Array(Gate.csv(findings).utf8))) }
        return out
    }

    /// Prints the findings (unless `quiet`) and why a gate that compared nothing does not
    /// pass; returns the exit code.
    func finish(quiet: Bool) -> Int32 {
        if !quiet { print(markdown) }
        let uncomparable = Gate.uncomparable(findings)
        let regressed = findings.contains(where: { $0.verdict == .regressed && $0.gated })
        if !regressed && Gate.compared(findings).isEmpty {
            FileHandle.standardError.write(Data("graticule: \(Gate.nothingComparedMessage(findings))\n".utf8))
        } else if !gate.allowUncomparable && !uncomparable.isEmpty && !regressed {
            FileHandle.standardError.write(Data("graticule: \(Gate.uncomparableMessage(uncomparable))\n".utf8))
        }
        return Gate.exitCode(findings, allowUncomparable: gate.allowUncomparable).rawValue
    }
}

/// Writes a command's output files as one set (all or none); exit 2 naming the one that
/// failed otherwise.
func writeOutputs(_ files: [(path: String, bytes: [UInt8])]) {
    do { try FileIO.writeAll(files) } catch { fail("cannot write \(error); none of the outputs was written") }
}
