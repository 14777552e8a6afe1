extension Double {
    /// Rounded to 10⁻⁶, the precision every computed number is answered with. Values of
    /// 10¹² and more, and non-finite ones, stay as they are (no fraction is left to round).
    public var roundedToMicro: Double {
        guard isFinite, abs(self) < 1e12 else { return self }
        return (self * 1_000_000).rounded() / 1_000_000
    }
}
