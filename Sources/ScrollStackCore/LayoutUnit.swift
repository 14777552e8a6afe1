/// Chromium's layout unit: lengths are whole multiples of 1/64 pt, and the measuring model
/// snaps at the same points Chromium does (Docs/Semantics.md, "Rounding as Chromium does").
public enum LayoutUnit {
    public static let scale = 64.0

    /// A length as given (CSS `px` → LayoutUnit): truncated toward zero to 1/64.
    public static func given(_ value: Double) -> Double {
        (value * scale).rounded(.towardZero) / scale
    }

    /// A derived length (aspect-ratio sizes, text advances): the largest multiple of 1/64 not
    /// above it, allowing for the last bits of binary rounding.
    public static func floor(_ value: Double) -> Double {
        (value * scale + 1e-7).rounded(.down) / scale
    }

    /// The nearest multiple of 1/64, halves away from zero (`LayoutUnit::FromDoubleRound`).
    public static func round(_ value: Double) -> Double {
        (value * scale).rounded(.toNearestOrAwayFromZero) / scale
    }

    /// The smallest multiple of 1/64 not below it (`LayoutUnit::FromFloatCeil`).
    public static func ceil(_ value: Double) -> Double {
        (value * scale - 1e-7).rounded(.up) / scale
    }
}
