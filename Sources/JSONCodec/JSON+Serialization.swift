extension JSON {
    /// Compact UTF-8 text, byte for byte what jansson's `json_dumpb` writes (`JSON_COMPACT |
    /// JSON_ENCODE_ANY`) but for reals at 15 or 16 digits (below): no spaces, members in
    /// order, non-ASCII characters as they are, `U+0000` and control characters escaped.
    /// Written by `JSONWriter` in one pass, with no jansson tree in between.
    ///
    /// Reals are written with `realPrecision` significant digits, from 1 to 31 (15 prints 0.1
    /// as `0.1`; 17 round-trips every double; 0 means jansson's default, 17), and always with a
    /// fraction or an exponent (`1.0`), so they read back as reals. At 15 and 16 the precision is
    /// a floor: a real whose text would read back as another double gets the fewest digits up
    /// to 17 that read back as itself (1/3 is `0.3333333333333333`, the largest double
    /// `1.7976931348623157e308`, where jansson writes `1.79769313486232e308`, which overflows);
    /// that is the one difference from jansson. Non-finite reals, which JSON cannot express, are
    /// written as `null`. Any value may be at the top level.
    ///
    /// - Complexity: O(size of the value), without recursion.
    public func serialized(realPrecision: Int = 15) -> [UInt8] {
        var writer = JSONWriter(realPrecision: realPrecision)
        writer.value(self)
        return writer.take()
    }

    /// The compact text of `serialized()` as a String.
    public var serializedString: String {
        String(decoding: serialized(), as: UTF8.self)
    }
}
