/// `n` and its noun, singular for one and plural otherwise: `counted(1, "feature")` is
/// "1 feature", `counted(3, "feature")` "3 features", `counted(2, "entry", "entries")`
/// "2 entries". What every message that counts says, so that number and noun agree.
public func counted(_ n: Int, _ singular: String, _ plural: String? = nil) -> String {
    "\(n) " + (n == 1 ? singular : plural ?? singular + "s")
}
