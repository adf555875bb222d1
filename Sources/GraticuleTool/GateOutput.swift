import BenchKit
import Foundation
import GraticuleSupport

/// Compares, prints the findings and writes the optional outputs; returns the exit code.
func gateAndPrint(base: RunReport, head: RunReport, gate: Gate, markdown: String?,
                  verdictsPath: String?, quiet: Bool) throws -> Int32 {
    let findings: [Gate.Finding]
    do { findings = try gate.compare(base: base, head: head) } catch { fail("\(error)") }
    let md = Gate.markdown(findings, base: base.metadata, head: head.metadata)
    if let markdown {
        do { try FileIO.writeText(markdown, md) } catch { fail("cannot write \(markdown): \(error)") }
    }
    if let verdictsPath {
        do { try FileIO.writeText(verdictsPath, Gate.csv(findings)) } catch { fail("cannot write \(verdictsPath): \(error)") }
    }
    if !quiet { print(md) }
    let uncomparable = Gate.uncomparable(findings)
    let regressed = findings.contains(where: { $0.verdict == .regressed && $0.gated })
    if !regressed && Gate.compared(findings).isEmpty {
        FileHandle.standardError.write(Data("graticule: \(Gate.nothingComparedMessage(findings))\n".utf8))
    } else if !gate.allowUncomparable && !uncomparable.isEmpty && !regressed {
        FileHandle.standardError.write(Data("graticule: \(Gate.uncomparableMessage(uncomparable))\n".utf8))
    }
    return Gate.exitCode(findings, allowUncomparable: gate.allowUncomparable).rawValue
}
