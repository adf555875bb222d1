import GraticuleSupport

extension SplitMix64 {
    /// True with probability `percent` / 100.
    public mutating func chance(_ percent: UInt64) -> Bool { next() % 100 < percent }
}
