extension RouteFollower {
    /// The totals of a run: updates, camera moves, tiles loaded and dropped.
    public struct Summary: Equatable, Sendable {
        public private(set) var updates = 0
        /// Updates on which the camera moved.
        public private(set) var moves = 0
        /// Tiles loaded after the first view, and the most in one update.
        public private(set) var loads = 0, maxLoad = 0
        public private(set) var drops = 0
        /// The most tiles in view at once.
        public private(set) var maxTiles = 0

        public init() {}

        public mutating func add(_ u: Update) {
            updates += 1
            if u.moved { moves += 1 }
            if u.index > 0 {
                loads += u.load.count
                maxLoad = max(maxLoad, u.load.count)
            }
            drops += u.drop.count
            maxTiles = max(maxTiles, u.tiles)
        }
    }
}
