import ArgumentParser
import TileCover

/// The tile `mvt inspect` reads: `Z X Y` after the file (an archive's tile, or a tile file's
/// address), or `--z --x --y`.
struct TileAddressArguments: ParsableArguments {
    @Argument(help: "Z X Y: the tile to read from an archive (XYZ, north at row 0); after a tile file, its address (as --z --x --y).")
    var address: [Int] = []

    @Option(help: "Tile zoom, for longitude/latitude output (with --x and --y).")
    var z: Int?
    @Option(help: "Tile column.")
    var x: Int?
    @Option(help: "Tile row (XYZ, north at 0).")
    var y: Int?

    /// The tile named by `Z X Y` (or `--z --x --y`), checked against the grid; nil when
    /// none is given.
    func tileID() -> TileID? {
        if !address.isEmpty {
            guard address.count == 3, z == nil, x == nil, y == nil else { fail("give the tile once, as Z X Y (or --z --x --y)") }
            guard let t = TileID(z: address[0], x: address[1], y: address[2]) else {
                fail("\(address.map(String.init).joined(separator: "/")) is not a tile of the 2^z grid (z 0-30)")
            }
            return t
        }
        guard z != nil || x != nil || y != nil else { return nil }
        guard let z, let x, let y, let t = TileID(z: z, x: x, y: y) else {
            fail("--z, --x and --y go together and must name a tile of the 2^z grid")
        }
        return t
    }
}
