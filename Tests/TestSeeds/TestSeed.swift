#if canImport(Glibc)
import Glibc
#endif

/// The seed of every seeded random test: one fixed default, so that every run (CI's
/// included) draws the same cases, and one variable, `SCROLLSTACK_SEED`, to draw others or
/// replay a printed seed. Each test prints the seed it used.
public enum TestSeed {
    /// The environment variable that overrides the default seed.
    public static let variable = "SCROLLSTACK_SEED"
    /// The seed when `SCROLLSTACK_SEED` is not set.
    public static let fixedDefault: UInt64 = 0x5C01_15AC

    /// The seed for the test `name`: `SCROLLSTACK_SEED` when it is set to a number, otherwise
    /// the fixed default; printed with the way to replay it.
    public static func seed(_ name: String) -> UInt64 {
        let given = getenv(variable).flatMap { UInt64(String(cString: $0)) }
        let seed = given ?? fixedDefault
        print("\(name): seed \(seed) (replay with \(variable)=\(seed))")
        return seed
    }
}
