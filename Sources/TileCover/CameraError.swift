/// Why a camera cover cannot be computed.
public enum CameraError: Error, Equatable, Sendable, CustomStringConvertible {
    /// A camera or option value outside its documented range (the name says which).
    case outOfRange(String, Double)
    /// A maximum tilt profile that cannot be read or breaks a rule (the text says which).
    case invalidTiltProfile(String)

    public var description: String {
        switch self {
        case .outOfRange(let name, let value): return "\(name) \(value) is outside its allowed range"
        case .invalidTiltProfile(let why): return "invalid maximum tilt profile: \(why)"
        }
    }
}
