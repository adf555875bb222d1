import GraticuleSupport
import ArgumentParser
import BenchKit
import Conformance
import Foundation

extension Conform {
    /// The GeoJSON suites a registered GeoJSON parser runs against, judged on its verdicts
    /// (accepted when it parses without throwing).
    static let parserSuites: Set<String> = ["geojsonhint", "geojson-schema", "geojson-invalid-geometry"]

    /// In-process implementations that live outside the Conformance module: those registered
    /// through `GraticuleTool.main(adding:)` (the `graticule` executable adds the
    /// swift-protobuf peer this way).
    static func extraImplementations(suite: String) -> [(String, () -> ConformanceImplementation)] {
        var extra: [(String, () -> ConformanceImplementation)] = []
        if parserSuites.contains(suite) {
            for (name, parse) in GraticuleTool.added.geoJSONParsers {
                extra.append((name, {
                    ConformanceImplementation(name: name, comparesOutput: false) { c in
                        do { try parse(c.input); return .accepted(output: nil) } catch {
                            return .rejected(errorClass: "invalid", detail: "\(error)")
                        }
                    }
                }))
            }
        }
        guard suite == "mvt-fixtures" else { return extra }
        for (name, decode) in GraticuleTool.added.tileDecoders {
            extra.append((name, {
                ConformanceImplementation(name: name, comparesOutput: false) { c in
                    do { try decode(c.input); return .accepted(output: nil) } catch {
                        return .rejected(errorClass: "fatal", detail: "\(error)")
                    }
                }
            }))
        }
        for (name, canonical) in GraticuleTool.added.tileCanonicalizers {
            extra.append((name, {
                ConformanceImplementation(name: name) { c in
                    do { return .accepted(output: try canonical(c.input)) } catch {
                        return .rejected(errorClass: "fatal", detail: "\(error)")
                    }
                }
            }))
        }
        return extra
    }
}
