import GraticuleTool
import SwiftProtobufPeer
import Workloads

// The command line lives in the GraticuleTool library, so that other packages can run it
// with their own implementations added (see Benchmarks/Examples). The executable adds the
// swift-protobuf peer, which the library does not link.
var peers = Implementations()
do {
    try SwiftProtobufPeer.register(in: &peers)
} catch {
    GraticuleTool.fail("cannot add the swift-protobuf peer: \(error)")
}
GraticuleTool.main(adding: peers)
