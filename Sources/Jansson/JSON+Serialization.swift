extension JSON {
    /// Compact UTF-8 text, byte for byte what jansson's `json_dumpb` writes (`JSON_COMPACT |
    /// JSON_ENCODE_ANY`): no spaces, members in order, non-ASCII characters as they are,
    /// `U+0000` and control characters escaped. Written by `JSONWriter` in one pass, with no
    /// jansson tree in between.
    ///
    /// Reals are written with `realPrecision` significant digits, from 1 to 31 (15 prints 0.1
    /// as `0.1`; 17 round-trips every double; 0 means jansson's default, 17), and always with a
    /// fraction or an exponent (`1.0`), so they read back as reals. Non-finite reals, which JSON
    /// cannot express, are written as `null`. Any value may be at the top level. Below 17
    /// digits, reals next to the largest double round up past it (`1.79769313486232e308` at
    /// 15), which jansson then refuses to read back as too large.
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
