/// Graticule's version (semantic versioning; 0.x while the interface settles). This is the
/// one place it is written: `graticule --version`, the reports' `tool_version` column, the
/// BMF and github-action-benchmark metadata and the HTML header all read it, and
/// `CHANGELOG.md` lists what changed in each version.
public enum GraticuleVersion {
    public static let current = "0.1.0"
}
