/// SplitMix64: a small seedable generator for the seeded random tests, so a printed seed
/// replays a failure exactly.
public struct SeededRandom: RandomNumberGenerator, Sendable {
    public var state: UInt64

    public init(_ seed: UInt64) { state = seed }

    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// A number in `0..<n` (`n` > 0; the modulo's bias is irrelevant for tests).
    public mutating func below(_ n: Int) -> Int { Int(next() % UInt64(n)) }
}
