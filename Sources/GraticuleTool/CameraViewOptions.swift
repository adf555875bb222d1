import ArgumentParser
import TileCover

/// The view and tile source options of `cover camera` and `cover transition`: the viewport,
/// field of view, the source's tiles and zooms, and how the cover treats them.
struct CameraViewOptions: ParsableArguments {
    @Option(help: "Viewport WIDTHxHEIGHT in points.")
    var viewport: String = "1920x1080"
    @Option(help: "Vertical field of view in degrees.")
    var fov: Double = Camera.defaultFieldOfView
    @Option(help: "The source's tile size in points: 512 or 256 (a 256 source loads one zoom deeper; default 512, or 256 with --zoom-convention google).")
    var tileSize: Int?
    @Option(help: "Image pixels per point, 1–4: a raster tile layer on a 2x screen asks for 512-px images of the same 256-point tiles.")
    var tileScale: Int = 1
    @Option(help: "The source's min zoom (no tiles below it).")
    var sourceMinZoom: Int = 0
    @Option(help: "The source's max zoom (deeper views overscale its tiles).")
    var sourceMaxZoom: Int = 22
    @Flag(help: "Round the target zoom instead of flooring it (raster sources).")
    var roundZoom = false
    @Flag(help: "Keep tiles at max zoom at their own zoom instead of the overscaled one.")
    var noOverscale = false
    @Flag(help: "Only the main world copy (wrap 0).")
    var noWorldCopies = false

    /// The viewport's sides; exit 2 when it is not WIDTHxHEIGHT or not a view a map can show.
    func size() -> (width: Double, height: Double) {
        guard let (w, h) = parseViewport(viewport) else { fail("--viewport must be WIDTHxHEIGHT, e.g. 390x844") }
        checkView(width: w, height: h, fieldOfView: fov, viewport: viewport)
        return (w, h)
    }

    /// The cover's options, the tile size defaulting as `limits`' convention says.
    func coverOptions(_ limits: CameraLimitOptions) -> CameraCoverOptions {
        CameraCoverOptions(tileSize: limits.tileSize(tileSize), tileScale: tileScale, minZoom: sourceMinZoom, maxZoom: sourceMaxZoom,
                           roundZoom: roundZoom, reparseOverscaled: !noOverscale, renderWorldCopies: !noWorldCopies)
    }
}
