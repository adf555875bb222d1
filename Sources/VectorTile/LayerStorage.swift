import PBF

/// Storage for the keys, values and feature index of the layers of a tile, reusable from
/// one tile to the next (`VectorTile.forEachLayer(storage:_:)`). Not for use by two
/// threads at once.
public final class LayerStorage {
    @usableFromInline @exclusivity(unchecked) var keys: [UnsafeRawBufferPointer] = []
    @usableFromInline @exclusivity(unchecked) var values: [MVTValue] = []
    @usableFromInline @exclusivity(unchecked) var index: _FeatureIndex? = nil

    public init() {}
}
