extension FontRequest {
    /// The default font of menu titles: Parchment's `UIFont.systemFont(ofSize: 15, weight:
    /// .medium)` for both `font` and `selectedFont`, with Inter (installed by default) standing
    /// in for the system font.
    public static let menuTitle = FontRequest(family: "Inter", size: 15, weight: 500)

    /// Checks the size (> 0, ≤ 10000) and weight (1…1000); `field` is the font's path. O(1).
    func validate(_ field: String) throws(StackError) {
        try Check.length(size, field + ".size")
        guard size > 0 && size <= 10_000 else { throw .invalid("must be greater than 0 and at most 10000", field: field + ".size") }
        guard (1...1000).contains(weight) else { throw .invalid("must be 1…1000", field: field + ".weight") }
    }
}
