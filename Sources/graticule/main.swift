import ArgumentParser
import Foundation

// Exit codes: 0 success / no regression, 1 regression or failing conformance case,
// 2 bad input or usage (ArgumentParser's own usage errors are mapped to 2 as well).
do {
    var command = try GraticuleCommand.parseAsRoot()
    try command.run()
} catch let code as ExitCode {
    exit(code.rawValue)
} catch {
    let code = GraticuleCommand.exitCode(for: error)
    if code == .success {
        print(GraticuleCommand.fullMessage(for: error))
        exit(0)
    }
    FileHandle.standardError.write(Data(("graticule: " + GraticuleCommand.fullMessage(for: error) + "\n").utf8))
    exit(2)
}
