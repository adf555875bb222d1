import Foundation
import XCTest
@testable import GraticuleSupport

/// Output files are whole or absent; targets that are not regular files are written
/// through; a missing folder is an error.
final class OutputFileTests: XCTestCase {
    var dir = ""

    override func setUpWithError() throws {
        dir = NSTemporaryDirectory() + "graticule-output-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws { try? FileManager.default.removeItem(atPath: dir) }

    func listing() throws -> [String] { try FileManager.default.contentsOfDirectory(atPath: dir).sorted() }

    func testCommitReplacesAndAbandonLeavesTheTargetAsItWas() throws {
        let path = dir + "/out.txt"
        try FileIO.writeText(path, "old\n")
        let out = try OutputFile(path: path)
        try out.write("new ")
        XCTAssertEqual(try FileIO.readText(path), "old\n", "nothing visible before commit")
        XCTAssertEqual(try listing().count, 2, "the partial file sits beside the target")
        out.abandon()
        XCTAssertEqual(try FileIO.readText(path), "old\n")
        XCTAssertEqual(try listing(), ["out.txt"], "no partial file is left")
        try FileIO.writeText(path, "new\n")
        XCTAssertEqual(try FileIO.readText(path), "new\n")
        XCTAssertEqual(try listing(), ["out.txt"])
    }

    /// A file dropped without commit (an error thrown through the writer) leaves nothing.
    func testDroppedWithoutCommitLeavesNothing() throws {
        struct Stop: Error {}
        func write() throws {
            let out = try OutputFile(path: dir + "/half.json")
            try out.write("{\"type\":")
            throw Stop()
        }
        XCTAssertThrowsError(try write())
        XCTAssertEqual(try listing(), [])
    }

    func testSymbolicLinkStaysALink() throws {
        try FileIO.writeText(dir + "/real.txt", "old")
        try FileManager.default.createSymbolicLink(atPath: dir + "/link.txt", withDestinationPath: "real.txt")
        try FileIO.writeText(dir + "/link.txt", "through the link")
        XCTAssertEqual(try FileManager.default.destinationOfSymbolicLink(atPath: dir + "/link.txt"), "real.txt")
        XCTAssertEqual(try FileIO.readText(dir + "/real.txt"), "through the link")
    }

    /// A FIFO is written through and stays a FIFO; a full device is a failure.
    func testFIFOAndFullDevice() throws {
        let fifo = dir + "/pipe"
        XCTAssertEqual(mkfifo(fifo, 0o600), 0)
        final class Box: @unchecked Sendable { var text = "" }
        let received = Box()
        let done = expectation(description: "read")
        let path = fifo
        Thread.detachNewThread {
            received.text = (try? FileIO.readText(path)) ?? ""
            done.fulfill()
        }
        try FileIO.writeText(fifo, "0/0/0\n")
        wait(for: [done], timeout: 10)
        XCTAssertEqual(received.text, "0/0/0\n")
        var st = stat()
        XCTAssertEqual(stat(fifo, &st), 0)
        XCTAssertEqual(st.st_mode & S_IFMT, S_IFIFO, "still a FIFO")
        if FileManager.default.fileExists(atPath: "/dev/full") {
            XCTAssertThrowsError(try FileIO.writeText("/dev/full", "x")) {
                XCTAssertTrue("\($0)".contains("write failed"), "\($0)")
            }
        }
    }

    func testMissingFolderAndDirectoryTargetAreErrors() throws {
        XCTAssertThrowsError(try FileIO.writeText(dir + "/missing/out.txt", "x")) {
            XCTAssertTrue("\($0)".contains("does not exist"), "\($0)")
        }
        XCTAssertThrowsError(try FileIO.checkWritable(dir + "/missing/out.txt"))
        XCTAssertFalse(FileIO.exists(dir + "/missing"), "the folder is not created")
        XCTAssertThrowsError(try FileIO.writeText(dir, "x")) { XCTAssertTrue("\($0)".contains("is a directory")) }
        XCTAssertThrowsError(try FileIO.readAll(dir)) { XCTAssertTrue("\($0)".contains("is a directory")) }
        XCTAssertThrowsError(try FileIO.readAll(dir + "/none")) { XCTAssertTrue("\($0)".contains("no such file")) }
    }

    /// A file a writer needs a path for is put in place only when the writer finishes;
    /// a writer that throws leaves the target as it was and no temporary file.
    func testBuildAtAPath() throws {
        struct Stop: Error {}
        let path = dir + "/archive.db"
        try FileIO.writeText(path, "old")
        XCTAssertThrowsError(try OutputFile.build(path) { p in
            try FileIO.writeText(p, "half")
            throw Stop()
        })
        XCTAssertEqual(try FileIO.readText(path), "old")
        XCTAssertEqual(try listing(), ["archive.db"])
        try OutputFile.build(path) { p in try FileIO.writeText(p, "whole") }
        XCTAssertEqual(try FileIO.readText(path), "whole")
        XCTAssertEqual(try listing(), ["archive.db"])
        XCTAssertThrowsError(try OutputFile.build(dir + "/missing/a.db") { _ in XCTFail("not reached") })
    }

    /// An output folder is built beside its target and renamed into place: a failed build
    /// leaves nothing (nested folders included), a folder holding files is refused untouched,
    /// an empty one is replaced, and a file in the way is an error.
    func testBuildAFolder() throws {
        struct Stop: Error {}
        let target = dir + "/tiles"
        XCTAssertThrowsError(try OutputFile.buildFolder(target) { p in
            try FileManager.default.createDirectory(atPath: p + "/3/4", withIntermediateDirectories: true)
            try FileIO.writeText(p + "/3/4/5.mvt", "half")
            throw Stop()
        })
        XCTAssertEqual(try listing(), [], "the half-built folder is gone")
        try OutputFile.buildFolder(target) { p in
            try FileManager.default.createDirectory(atPath: p + "/0/0", withIntermediateDirectories: true)
            try FileIO.writeText(p + "/0/0/0.mvt", "whole")
        }
        XCTAssertEqual(try FileIO.readText(target + "/0/0/0.mvt"), "whole")
        XCTAssertEqual(try listing(), ["tiles"])
        XCTAssertThrowsError(try OutputFile.buildFolder(target) { _ in XCTFail("not reached") }) { e in
            XCTAssertTrue("\(e)".contains("already holds files"), "\(e)")
        }
        XCTAssertEqual(try FileIO.readText(target + "/0/0/0.mvt"), "whole", "a folder holding files is left as it was")
        let empty = dir + "/empty"
        try FileManager.default.createDirectory(atPath: empty, withIntermediateDirectories: false)
        try OutputFile.buildFolder(empty) { p in try FileIO.writeText(p + "/a.txt", "a") }
        XCTAssertEqual(try FileIO.readText(empty + "/a.txt"), "a")
        try FileIO.writeText(dir + "/file", "x")
        XCTAssertThrowsError(try OutputFile.buildFolder(dir + "/file") { _ in XCTFail("not reached") })
        XCTAssertEqual(try listing(), ["empty", "file", "tiles"])
    }

    /// Several outputs are written as a set: when one fails (a full device), the others'
    /// targets stay as they were and no partial file is left.
    func testASetIsWholeOrAbsent() throws {
        let a = dir + "/a.csv", b = dir + "/b.json"
        try FileIO.writeText(a, "old a\n")
        try FileIO.writeAll([(a, Array("new a\n".utf8)), (b, Array("new b\n".utf8))])
        XCTAssertEqual(try FileIO.readText(a), "new a\n")
        XCTAssertEqual(try FileIO.readText(b), "new b\n")
        guard FileIO.exists("/dev/full") else { return }
        XCTAssertThrowsError(try FileIO.writeAll([(a, Array("newer a\n".utf8)), ("/dev/full", Array("x".utf8)),
                                                  (dir + "/c.txt", Array("c".utf8))]))
        XCTAssertEqual(try FileIO.readText(a), "new a\n", "the first target is left as it was")
        XCTAssertEqual(try listing(), ["a.csv", "b.json"], "no partial file, no third file")
    }

    /// Standard output as an OutputFile: writes go through fd 1 and commit leaves it open.
    func testStandardOutputStaysOpen() throws {
        let out = OutputFile.standardOutput()
        XCTAssertTrue(out.writesThrough)
        try out.write("")
        try out.commit()
        XCTAssertNotEqual(fcntl(1, F_GETFD), -1, "fd 1 is still open")
    }
}

