import XCTest
@testable import BenchKit

final class ReportTests: XCTestCase {
    static let metadata: RunMetadata = {
        var m = RunMetadata(
            runID: "run1", timestamp: "2026-01-02T03:04:05Z", gitCommit: "abc123", gitDirty: true,
            toolchain: "swift-6.3", buildConfiguration: "release", cpuModel: "Test CPU, 2 GHz",
            cpuCount: 2, os: "Debian GNU/Linux 12 (bookworm)", kernel: "6.1.0", loadAverage: "0.10 0.20 0.30",
            allocator: "jemalloc 5.3.0")
        m.toolVersion = "9.8.7"
        return m
    }()

    static func sampleReport() -> RunReport {
        let key = CaseKey(benchmark: "pbf.varint.decode", implementation: "graticule",
                          dataset: "generated/x", parameters: "")
        let peer = CaseKey(benchmark: "pbf.varint.decode", implementation: "peer",
                           dataset: "generated/x", parameters: "mode=a;size=2")
        var time = MetricResult.measured(key, bytes: 1000, items: 10, metric: .timeNs, iterations: 4,
                                         samples: [100, 100, 100])
        time.summary = SampleSummary(count: 3, min: 100, p25: 100, median: 100, p75: 100, p90: 100,
                                     p99: 100, max: 100, mean: 100, stddev: 0, cv: 0, ciLow: 100, ciHigh: 100)
        var peerTime = MetricResult.measured(peer, bytes: 1000, items: 10, metric: .timeNs, iterations: 2,
                                             samples: [250, 250])
        peerTime.summary = SampleSummary(count: 2, min: 250, p25: 250, median: 250, p75: 250, p90: 250,
                                         p99: 250, max: 250, mean: 250, stddev: 0, cv: 0, ciLow: 250, ciHigh: 250)
        peerTime.ratio = .init(reference: "graticule", value: 2.5, low: 2.5, high: 2.5)
        let unsupported = MetricResult(key: peer, datasetBytes: 1000, datasetItems: 10, metric: "alloc_count",
                                       status: .unsupported, detail: "external program, \"no\" allocator")
        return RunReport(metadata: metadata, results: [time, peerTime, unsupported])
    }

    /// Golden text, written by hand from the documented schema.
    func testReportCSVGolden() {
        let meta = "4,run1,2026-01-02T03:04:05Z,9.8.7,abc123,true,swift-6.3,release,\"Test CPU, 2 GHz\",2,Debian GNU/Linux 12 (bookworm),6.1.0,0.10 0.20 0.30,jemalloc 5.3.0"
        let expected = """
        schema_version,run_id,timestamp,tool_version,git_commit,git_dirty,toolchain,build_configuration,cpu_model,cpu_count,os,kernel,load_average,allocator,benchmark,implementation,role,dataset,dataset_bytes,dataset_items,parameters,metric,status,samples,iterations_per_sample,min,p25,median,p75,p90,p99,max,mean,stddev,cv,ci95_low,ci95_high,reference,ratio_to_reference,ratio_to_reference_ci95_low,ratio_to_reference_ci95_high,speedup,speedup_ci95_low,speedup_ci95_high,detail
        \(meta),pbf.varint.decode,graticule,project,generated/x,1000,10,,time_ns,ok,3,4,100,100,100,100,100,100,100,100,0,0,100,100,,,,,,,,
        \(meta),pbf.varint.decode,peer,peer,generated/x,1000,10,mode=a;size=2,time_ns,ok,2,2,250,250,250,250,250,250,250,250,0,0,250,250,graticule,2.5,2.5,2.5,0.4,0.4,0.4,
        \(meta),pbf.varint.decode,peer,peer,generated/x,1000,10,mode=a;size=2,alloc_count,unsupported,,,,,,,,,,,,,,,,,,,,,,"external program, ""no"" allocator"

        """
        XCTAssertEqual(Self.sampleReport().csv(), expected)
    }

    func testSamplesCSVGolden() {
        let expected = """
        run_id,benchmark,implementation,dataset,parameters,metric,sample,iterations,value
        run1,pbf.varint.decode,graticule,generated/x,,time_ns,0,4,100
        run1,pbf.varint.decode,graticule,generated/x,,time_ns,1,4,100
        run1,pbf.varint.decode,graticule,generated/x,,time_ns,2,4,100
        run1,pbf.varint.decode,peer,generated/x,mode=a;size=2,time_ns,0,2,250
        run1,pbf.varint.decode,peer,generated/x,mode=a;size=2,time_ns,1,2,250

        """
        XCTAssertEqual(Self.sampleReport().samplesCSV(), expected)
    }

    func testReadBackEqualsWritten() throws {
        let report = Self.sampleReport()
        let parsed = try RunReport.parse(csv: report.csv(), samples: report.samplesCSV())
        XCTAssertEqual(parsed, report)
    }

    func testReaderRejectsForeignOrFutureFiles() {
        XCTAssertThrowsError(try RunReport.parse(csv: "a,b\n1,2\n", samples: nil)) { e in
            guard case .wrongHeader = e as? ReportError else { return XCTFail("\(e)") }
        }
        var future = Self.sampleReport().csv()
        future = future.replacingOccurrences(of: "\n4,run1", with: "\n9,run1")
        XCTAssertThrowsError(try RunReport.parse(csv: future, samples: nil)) { e in
            XCTAssertEqual(e as? ReportError, .unsupportedSchema(path: "<report>", version: "9"))
        }
        XCTAssertThrowsError(try RunReport.parse(csv: RunReport.columns.joined(separator: ",") + "\n", samples: nil)) { e in
            XCTAssertEqual(e as? ReportError, .empty(path: "<report>"))
        }
        let broken = Self.sampleReport().csv().replacingOccurrences(of: ",ok,3,4,100,", with: ",ok,x,4,100,")
        XCTAssertThrowsError(try RunReport.parse(csv: broken, samples: nil)) { e in
            XCTAssertEqual(e as? ReportError, .badField(path: "<report>", line: 2, column: "samples", value: "x"))
        }
    }

    /// A report of schema version 1 (one `ratio` column) is refused, and the message names
    /// its version and the one this build reads.
    func testVersionOneReportIsRefusedNamingBothVersions() {
        let v1Header = "schema_version,run_id,timestamp,git_commit,git_dirty,toolchain,build_configuration,cpu_model,cpu_count,os,kernel,load_average,allocator,benchmark,implementation,dataset,dataset_bytes,dataset_items,parameters,metric,status,samples,iterations_per_sample,min,p25,median,p75,p90,p99,max,mean,stddev,cv,ci95_low,ci95_high,reference,ratio,ratio_ci95_low,ratio_ci95_high,detail"
        let v1Row = "1,run1,2026-01-02T03:04:05Z,abc123,true,swift-6.3,release,cpu,2,os,6.1.0,0 0 0,jemalloc 5.3.0,b.op,graticule,d,1,1,,time_ns,ok,1,1,1,1,1,1,1,1,1,1,0,0,1,1,,,,,"
        XCTAssertThrowsError(try RunReport.parse(csv: v1Header + "\n" + v1Row + "\n", samples: nil, path: "base.csv")) { e in
            XCTAssertEqual(e as? ReportError, .unsupportedSchema(path: "base.csv", version: "1"))
            XCTAssertEqual("\(e)", "base.csv: schema version 1 is not supported (this build reads 2, 3 and 4)")
        }
    }

    /// A schema-3 report (no `tool_version`) reads, its version empty; written again, it
    /// is schema 4 with the same rows.
    func testSchemaThreeReportReadsWithoutAVersion() throws {
        let v4 = Self.sampleReport().csv()
        var lines = v4.split(separator: "\n").map(String.init)
        lines[0] = lines[0].replacingOccurrences(of: ",tool_version,", with: ",")
        for i in 1..<lines.count {
            lines[i] = lines[i].replacingOccurrences(of: "4,run1,2026-01-02T03:04:05Z,9.8.7,", with: "3,run1,2026-01-02T03:04:05Z,")
        }
        let read = try RunReport.parse(csv: lines.joined(separator: "\n") + "\n", samples: nil)
        XCTAssertEqual(read.metadata.toolVersion, "")
        XCTAssertEqual(read.results, Self.sampleReport().results.map { var r = $0; r.samples = []; return r })
        XCTAssertTrue(read.csv().hasPrefix(RunReport.columns.joined(separator: ",") + "\n4,run1,2026-01-02T03:04:05Z,,abc123,"))
    }

    /// `speedup` is written on time rows only, as the inverse of `ratio_to_reference`.
    func testSpeedupIsTheInverseOnTimeRowsOnly() {
        var r = MetricResult.measured(CaseKey(benchmark: "b", implementation: "p", dataset: "d", parameters: ""),
                                      bytes: 1, items: 1, metric: .timeNs, iterations: 1, samples: [4])
        r.ratio = .init(reference: "graticule", value: 4, low: 2, high: 8)
        XCTAssertEqual(r.speedup, .init(reference: "graticule", value: 0.25, low: 0.125, high: 0.5))
        r.metric = Metric.allocCount.rawValue
        XCTAssertNil(r.speedup)
    }

    func testSamplesPath() {
        XCTAssertEqual(RunReport.samplesPath(for: "reports/latest.csv"), "reports/latest.samples.csv")
        XCTAssertEqual(RunReport.samplesPath(for: "out"), "out.samples.csv")
    }

    func testHTMLIsSelfContained() {
        let html = HTMLReport.render(Self.sampleReport())
        XCTAssertTrue(html.hasPrefix("<!DOCTYPE html>"))
        XCTAssertTrue(html.contains("<svg"))
        XCTAssertTrue(html.contains("Test CPU, 2 GHz"))
        XCTAssertTrue(html.contains("&quot;no&quot;"))
        // Only the SVG namespace URI may appear; nothing is fetched.
        let stripped = html.replacingOccurrences(of: "xmlns=\"http://www.w3.org/2000/svg\"", with: "")
        XCTAssertFalse(stripped.contains("http"))
        XCTAssertFalse(stripped.contains("<script"))
    }
}
