import GraticuleSupport

/// Metadata that every row of a run carries.
public struct RunMetadata: Equatable, Sendable {
    public static let currentSchemaVersion = 4
    /// Older schema versions this build still reads (version 2 has no `role` column: its
    /// `graticule` rows are read as the project's, every other row as a peer's; versions 2
    /// and 3 have no `tool_version`, read as empty).
    public static let readableSchemaVersions = [2, 3, 4]

    public var schemaVersion: Int = RunMetadata.currentSchemaVersion
    public var runID: String
    /// ISO 8601 UTC.
    public var timestamp: String
    /// The Graticule version that wrote the run (empty when read from a schema-2 or
    /// schema-3 report, which did not record it).
    public var toolVersion: String = GraticuleVersion.current
    public var gitCommit: String
    public var gitDirty: Bool
    public var toolchain: String
    /// `release` or `debug`.
    public var buildConfiguration: String
    public var cpuModel: String
    public var cpuCount: Int
    public var os: String
    public var kernel: String
    /// The 1, 5 and 15 minute load averages at the start of the run, space-separated.
    public var loadAverage: String
    public var allocator: String

    public init(runID: String, timestamp: String, gitCommit: String, gitDirty: Bool,
                toolchain: String, buildConfiguration: String, cpuModel: String, cpuCount: Int,
                os: String, kernel: String, loadAverage: String, allocator: String) {
        self.runID = runID
        self.timestamp = timestamp
        self.gitCommit = gitCommit
        self.gitDirty = gitDirty
        self.toolchain = toolchain
        self.buildConfiguration = buildConfiguration
        self.cpuModel = cpuModel
        self.cpuCount = cpuCount
        self.os = os
        self.kernel = kernel
        self.loadAverage = loadAverage
        self.allocator = allocator
    }
}
