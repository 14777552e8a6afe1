extension ScrollStack {
    /// Enforces the one rule that ties rows to the menu: while the menu sizes items to their
    /// titles (`sizeToFit`, `selfSizing`) and the stack has no title measurer, every row whose
    /// title has text must give its item `width`. `field` names the input at fault given the
    /// offending row's position in `rows` (the row's `title.width`, or `menu.itemSize` when
    /// the menu changes).
    ///
    /// - Complexity: O(k) for k rows.
    func checkTitles(_ rows: [Row], menu: MenuSettings?? = nil, field: (Int) -> String) throws(StackError) {
        let menu = menu ?? settings.menu
        guard let menu, menu.itemSize.measuresTitles, titleMeasurer == nil else { return }
        for (i, row) in rows.enumerated() {
            guard let title = row.title, let text = title.text, title.width == nil else { continue }
            throw .invalid(
                "the menu sizes items to their titles (\(menu.itemSize.modeName)) and this stack has no text measurer: the title \"\(text)\" of row \"\(row.id)\" needs its item width in points (title.width)",
                field: field(i))
        }
    }

    /// With a title measurer, the menu's `font` and `selectedFont` must be fonts it has
    /// (`menu.font.family`, `menu.selectedFont.family`, the message listing what there is).
    /// Without one, fonts are kept as given and never used. O(1).
    func checkMenuFonts(_ menu: MenuSettings?) throws(StackError) {
        guard let menu, let titleMeasurer else { return }
        for (font, name) in [(menu.font, "font"), (menu.selectedFont, "selectedFont")] {
            if let reason = titleMeasurer.unavailable(font) { throw .invalid(reason, field: "menu.\(name).family") }
        }
    }
}
