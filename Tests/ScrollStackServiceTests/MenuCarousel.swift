/// The carousel the menu tests share: `pages` full-width pages of 375 (page k rests at
/// 375·k), no row insets, under a menu of fixed items 100 × 40 titled P0, P1, ….
enum MenuCarousel {
    /// Its create body, id `c`, with `members` (JSON members, without braces) added to its menu.
    static func body(pages: Int, menu members: String) -> String {
        let rows = (0..<pages).map { #"{"id": "p\#($0)", "view": {"type": "Page"}, "size": {"fixed": 375}, "title": "P\#($0)"}"# }
        return """
            {"id": "c", "axis": "horizontal", "viewport": {"width": 375, "height": 500},
             "rowInsets": {"top": 0, "left": 0, "bottom": 0, "right": 0}, "paging": {"size": {"fraction": 1}},
             "menu": {"itemSize": {"fixed": {"width": 100, "height": 40}}\(members.isEmpty ? "" : ", " + members)},
             "rows": [\(rows.joined(separator: ", "))]}
            """
    }
}
