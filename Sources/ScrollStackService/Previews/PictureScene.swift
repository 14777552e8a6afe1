import ScrollStackCore
import ScrollStackPaging
import ScrollStackRender
import ScrollStackText

/// Turns layouts into a `Scene`, the one picture both the SVG (`LayoutSVG`) and the PNG
/// (`CairoCanvas`) draw. Panels sit side by side (one per device), 1 unit = 1 pt.
///
/// A panel shows its heading, the content (a grey box of `contentSize`), and every row that
/// is not hidden: a row with a `style` as the style paints it (background, image
/// placeholder, text in its text colour, border, corners clipping all of it), a row without
/// one as the wireframe of its visibility (entire green, partial orange, offscreen grey and
/// dashed) labelled with its type and id unless it shows text. A fit row's text is drawn as
/// the glyphs the text engine shaped, at the lines its content frames give. Then
/// separators over the rows, the viewport as a red frame, a paging stack's page indicator
/// dots and its menu (in the menu's colours: item titles and backgrounds at each item's
/// progress, the indicator and the border) above or below the viewport.
///
/// At most `glyphs.limit` glyphs are drawn (`ServiceLimits.pictureGlyphs`): the caller
/// refuses a scene whose budget was exceeded.
///
/// - Complexity: O(rows drawn + their text's UTF-16 units), the text bounded by the budget
///   (plus one text node past it).
struct PictureScene {
    /// One panel: a heading and a layout.
    struct Panel {
        let title: String
        let laid: LaidOut
    }

    let text: TextEngine?
    /// The glyphs the scene may hold; text past it is left out and `glyphs.exceeded` set.
    let glyphs: GlyphBudget
    /// The stacks rows embed, followed to its depth; nil draws embedding rows as any other.
    var embedded: EmbeddedLayouts? = nil

    /// Counts the glyphs a scene draws against a limit (a class, so the builder's functions
    /// share it).
    final class GlyphBudget {
        let limit: Int
        private(set) var used = 0
        private(set) var exceeded = false

        init(limit: Int) {
            self.limit = limit
        }

        /// Whether more text may be shaped and drawn (false once the limit is passed).
        var open: Bool { !exceeded }

        /// Counts `lines`' glyphs; past the limit, marks the budget exceeded. O(lines).
        func spend(_ lines: [GlyphLine]) {
            used += lines.reduce(0) { $0 + $1.glyphCount }
            if used > limit { exceeded = true }
        }
    }

    static let margin = 16.0
    static let headingHeight = 24.0
    static let gap = 32.0
    /// The family of the drawing's own words (headings, labels, the viewport's caption).
    static let labelFamily = "DejaVu Sans"

    /// Wireframe colours by visibility: (fill, stroke, dash).
    static func wireframe(_ visibility: Visibility) -> (fill: RGBA, stroke: RGBA, dash: [Double]) {
        switch visibility {
        case .entire: (RGBA(red: 0x34, green: 0xC7, blue: 0x59, alpha: 115), RGBA(red: 0x24, green: 0x8A, blue: 0x3D), [])
        case .partial: (RGBA(red: 0xFF, green: 0x95, blue: 0x00, alpha: 115), RGBA(red: 0xC9, green: 0x34, blue: 0x00), [])
        case .offscreen, .hidden: (RGBA(red: 0xD1, green: 0xD1, blue: 0xD6, alpha: 115), RGBA(red: 0x8E, green: 0x8E, blue: 0x93), [4, 3])
        }
    }

    /// The scene of `panels`.
    func scene(_ panels: [Panel]) -> Scene {
        var items: [SceneItem] = []
        var x = 0.0
        var height = 0.0
        for (index, panel) in panels.enumerated() {
            let bounds = Self.extent(panel.laid)
            // Content space, clipped to the panel's extent (a window shows part of the content).
            let offset = Point(x: Self.margin - bounds.origin.x, y: Self.margin + Self.headingHeight - bounds.origin.y)
            var panelItems: [SceneItem] = []
            panelItems += label(panel.title, size: 13, color: RGBA(red: 0x1C, green: 0x1C, blue: 0x1E), at: Point(x: Self.margin, y: Self.margin - 9))
            panelItems.append(.group(attributes: [.init("class", "content-space")], offset: offset, clip: SceneItem.Clip(Self.grown(bounds, by: 2)),
                                     items: draw(panel.laid, EmbeddedLayouts.root(panel.laid.layout))))
            items.append(.group(attributes: [.init("class", "panel"), .init("data-panel", String(index))], offset: Point(x: x, y: 0), clip: nil,
                                items: panelItems))
            x += bounds.size.width + 2 * Self.margin + Self.gap
            height = max(height, bounds.size.height + 2 * Self.margin + Self.headingHeight)
        }
        return Scene(width: max(1, x - Self.gap), height: max(1, height), background: RGBA(red: 255, green: 255, blue: 255), items: items)
    }

    /// The part of content space a panel shows: the content and the viewport (and the menu),
    /// or, for a window or a page, the viewport and the rows drawn.
    static func extent(_ laid: LaidOut) -> Rect {
        let layout = laid.layout
        var bounds = Rect(origin: layout.offset, size: layout.viewport)
        if laid.window == nil && layout.rows.count == laid.stack.count {
            bounds = union(bounds, Rect(origin: Point(x: 0, y: 0), size: layout.contentSize))
        }
        for row in layout.rows where row.visibility != .hidden { bounds = union(bounds, row.frame) }
        if let menu = laid.stack.settings.menu {
            bounds = union(bounds, moved(laid.stack.menuFrame(menu), layout.offset.x, layout.offset.y))
        }
        return bounds
    }

    /// The rows and what is drawn over them, in content coordinates. `placement` places the
    /// stack in the root's coordinates (level 1 for the root): an embedded stack's rows take
    /// their visibility through every enclosing viewport, as composed layouts give it, are
    /// clipped to its viewport, and its viewport is not outlined.
    private func draw(_ laid: LaidOut, _ placement: EmbeddedLayouts.Placement) -> [SceneItem] {
        let layout = laid.layout
        let stack = laid.stack
        let nested = placement.level > 1
        var out: [SceneItem] = []
        let content = Rect(origin: Point(x: 0, y: 0), size: layout.contentSize)
        out.append(.rect(content, fill: RGBA(red: 0xF2, green: 0xF2, blue: 0xF7), stroke: Stroke(width: 1, color: RGBA(red: 0x8E, green: 0x8E, blue: 0x93)),
                         attributes: [.init("class", "content")]))
        var separators: [SceneItem] = []
        let embedding = embedded.flatMap { _ in EmbeddedLayouts.embeddingRows(of: stack, answering: layout.rows.count) }
        for laidRow in layout.rows where laidRow.visibility != .hidden {
            guard let stored = stack.row(id: laidRow.id) else { continue }
            var row = laidRow
            if nested {
                row.visibility = EmbeddedLayouts.visibility(of: EmbeddedLayouts.moved(row.frame, by: placement.translation), hidden: false, in: placement.clip)
            }
            let frame = row.frame
            let inner = embedded.flatMap { _ in embedding.map { $0[row.index] } ?? stack.embeddedStack(ofRow: row.id) }
                .flatMap { embeddedItem($0, row, placement) }
            var items: [SceneItem] = []
            var clip: SceneItem.Clip?
            let texts = text.flatMap { engine in stack.contentFrames(of: row).map { textRuns(stored, $0, engine: engine) } } ?? []
            if let style = stored.style {
                let radius = style.cornerRadius ?? 0
                items.append(.rect(frame, radius: radius, fill: style.background.flatMap(RGBA.init(hex:)) ?? RGBA(red: 0, green: 0, blue: 0, alpha: 0)))
                if radius > 0 { clip = SceneItem.Clip(frame, radius: radius) }
                if let image = style.image, let fill = RGBA(hex: image.fill) {
                    items.append(.rect(Self.aspectFit(image.aspectRatio, in: row.contentFrame), fill: fill, attributes: [.init("class", "image")]))
                }
                let color = style.textColor.flatMap(RGBA.init(hex:)) ?? RGBA(red: 0, green: 0, blue: 0)
                items += texts.map { run in var run = run; run.color = color; return .glyphs(run) }
                if let border = style.border, border.width > 0, let color = RGBA(hex: border.color) {
                    let inset = Rect(x: frame.minX + border.width / 2, y: frame.minY + border.width / 2,
                                     width: max(0, frame.size.width - border.width), height: max(0, frame.size.height - border.width))
                    items.append(.rect(inset, radius: max(0, radius - border.width / 2), fill: nil, stroke: Stroke(width: border.width, color: color),
                                       attributes: [.init("class", "border")]))
                }
            } else {
                let look = Self.wireframe(row.visibility)
                items.append(.rect(frame, fill: look.fill, stroke: Stroke(width: 1, color: look.stroke, dash: look.dash)))
                items += texts.map { .glyphs($0) }
                if texts.isEmpty && inner == nil && frame.size.height >= 14 && frame.size.width >= 40 {
                    let type = stored.content.typeName
                    var words = type.isEmpty ? row.id : "\(type) · \(row.id)"
                    if case .partial(let fraction) = row.visibility { words += " (\(Int((fraction * 100).rounded())) %)" }
                    let size = min(12, frame.size.height - 2)
                    items += label(words, size: size, color: RGBA(red: 0x1C, green: 0x1C, blue: 0x1E),
                                   at: Point(x: frame.minX + 6, y: frame.minY + max(0, min(frame.size.height / 2, 14) - size)))
                }
            }
            if let inner { items.append(inner) }
            out.append(.group(attributes: [.init("class", "row \(row.visibility.name)"), .init("data-id", row.id), .init("data-index", String(row.index)),
                                           .init("data-visibility", row.visibility.name)], clip: clip, items: items))
            if let separator = row.separatorFrame, let color = RGBA(hex: stack.settings.separator.applying(stored.separator).color) {
                separators.append(.rect(separator, fill: color, attributes: [.init("class", "separator"), .init("data-row", row.id)]))
            }
        }
        out.append(.group(attributes: [.init("class", "separators")], clip: nil, items: separators))
        let viewport = Rect(origin: layout.offset, size: layout.viewport)
        if nested {
            // A scroll view clips its content to its bounds.
            out = [.group(attributes: [.init("class", "viewport")], clip: SceneItem.Clip(viewport), items: out)]
        } else {
            out.append(.rect(viewport, fill: nil, stroke: Stroke(width: 2, color: RGBA(red: 0xFF, green: 0x3B, blue: 0x30)), attributes: [.init("id", "viewport")]))
        }
        if let indicator = stack.pageIndicatorLayout(offset: layout.offset), !indicator.hidden {
            var dots: [SceneItem] = []
            for (listed, (dot, color)) in zip(indicator.dots, indicator.dotColors).enumerated() {
                let page = indicator.firstDot + listed
                guard let fill = RGBA(hex: color) else { continue }
                dots.append(.circle(center: Point(x: viewport.minX + dot.minX + dot.size.width / 2, y: viewport.minY + dot.minY + dot.size.height / 2),
                                    radius: dot.size.width / 2, fill: fill,
                                    attributes: [.init("class", page == indicator.currentPage ? "dot current" : "dot")]))
            }
            out.append(.group(attributes: [.init("class", "page-indicator"), .init("data-current-page", String(indicator.currentPage))], clip: nil, items: dots))
        }
        if let menu = stack.settings.menu, let menuLayout = stack.menuLayout(offset: layout.offset) {
            out.append(self.menu(menu, menuLayout, stack, frame: Self.moved(stack.menuFrame(menu), viewport.minX, viewport.minY)))
        }
        guard !nested else { return out }
        let caption = "viewport \(LayoutSVG.n(layout.viewport.width))×\(LayoutSVG.n(layout.viewport.height)) at (\(LayoutSVG.n(layout.offset.x)), \(LayoutSVG.n(layout.offset.y)))"
        let width = text?.drawableLines(of: TextContent(caption, font: FontRequest(family: Self.labelFamily, size: 11)), width: nil).widths.first ?? 0
        out += label(caption, size: 11, color: RGBA(red: 0xFF, green: 0x3B, blue: 0x30), at: Point(x: viewport.maxX - 4 - width, y: viewport.minY + 2))
        return out
    }

    /// The stack `id` that `row` embeds, drawn in the row's content frame at its own offset
    /// (its visible rows, page indicator and menu), as a group in the host's content
    /// coordinates; nil past the depth or when the stack cannot be read.
    private func embeddedItem(_ id: String, _ row: RowLayout, _ host: EmbeddedLayouts.Placement) -> SceneItem? {
        guard let embedded, let laid = embedded.stack(id, viewport: row.contentFrame.size, level: host.level) else { return nil }
        let (child, layout) = laid
        let origin = Point(x: row.contentFrame.origin.x - layout.offset.x, y: row.contentFrame.origin.y - layout.offset.y)
        let frame = EmbeddedLayouts.moved(row.contentFrame, by: host.translation)
        let placement = EmbeddedLayouts.Placement(translation: Point(x: host.translation.x + origin.x, y: host.translation.y + origin.y),
                                                  clip: host.clip.flatMap { EmbeddedLayouts.intersection($0, frame) }, level: host.level + 1)
        return .group(attributes: [.init("class", "embedded"), .init("data-stack", id)], offset: origin, clip: nil,
                      items: draw(LaidOut(stack: child, layout: layout, window: layout), placement))
    }

    /// The menu over `frame` (viewport coordinates moved into the scene), in the menu's colours:
    /// its background, each item's background (unless clear) and title centred in its item in
    /// the colours of the item's progress (the selected one in the selected font), the border
    /// and the indicator.
    private func menu(_ menu: MenuSettings, _ layout: MenuLayout, _ stack: ScrollStack, frame: Rect) -> SceneItem {
        func color(_ hex: String) -> RGBA { RGBA(hex: hex) ?? RGBA(red: 0, green: 0, blue: 0) }
        var items: [SceneItem] = [.rect(frame, fill: color(menu.menuBackgroundColor), attributes: [.init("class", "menu-background")])]
        let entries = stack.menuEntries()
        for (k, item) in layout.items.enumerated() {
            let box = Rect(x: frame.minX + item.frame.minX - layout.contentOffset, y: frame.minY + item.frame.minY,
                           width: item.frame.size.width, height: item.frame.size.height)
            // Only what shows in the menu's frame is drawn: a menu of every row of a long stack
            // costs the items it shows, not a shape and a title for each.
            guard box.maxX > frame.minX, box.minX < frame.maxX else { continue }
            let background = color(item.backgroundColor)
            if background.alpha > 0 {
                items.append(.rect(box, fill: background, attributes: [.init("class", "menu-item-background")]))
            }
            let selected = k == layout.selected
            let title = k < entries.count ? entries[k].entry.title?.text ?? item.id : item.id
            let font = selected ? menu.selectedFont : menu.font
            let content = TextContent(title, font: font, maxLines: 1)
            guard let engine = text, glyphs.open else { continue }
            let shaped = engine.glyphLines(of: content, width: nil)
            glyphs.spend(shaped)
            guard let line = shaped.first else { continue }
            let measured = engine.drawableLines(of: content, width: nil)
            let width = measured.widths.first ?? 0, lineHeight = measured.widths.isEmpty ? measured.lineHeight : measured.height(ofLine: 0)
            let origin = Point(x: box.minX + (box.size.width - width) / 2, y: box.minY + (box.size.height - lineHeight) / 2 + line.baseline)
            for run in line.runs {
                items.append(.glyphs(GlyphRun(face: run.face, size: run.size, synthesis: run.synthesis, color: color(item.textColor), origin: origin, glyphs: run.glyphs)))
            }
        }
        if let border = layout.border {
            items.append(.rect(Self.moved(border, frame.minX, frame.minY), fill: color(menu.borderColor), attributes: [.init("class", "menu-border")]))
        }
        if let indicator = layout.indicator {
            items.append(.rect(Self.moved(indicator, frame.minX - layout.contentOffset, frame.minY), fill: color(menu.indicatorColor),
                               attributes: [.init("class", "menu-indicator")]))
        }
        return .group(attributes: [.init("class", "menu"), .init("data-selected", layout.selected.map(String.init) ?? "")],
                      clip: SceneItem.Clip(frame), items: items)
    }

    /// The glyph runs of `row`'s text nodes, black, at the lines of `frames`.
    private func textRuns(_ row: Row, _ frames: ContentFrame, engine: TextEngine) -> [GlyphRun] {
        guard let description = row.contentDescription else { return [] }
        var runs: [GlyphRun] = []
        func walk(_ node: ContentDescription, _ frame: ContentFrame) {
            switch node.kind {
            case .text(let content):
                guard glyphs.open else { return }
                let lines = engine.glyphLines(of: content, width: frame.frame.size.width)
                glyphs.spend(lines)
                for (line, box) in zip(lines, frame.lines) {
                    for run in line.runs {
                        runs.append(GlyphRun(face: run.face, size: run.size, synthesis: run.synthesis, color: RGBA(red: 0, green: 0, blue: 0),
                                             origin: Point(x: box.minX, y: box.minY + line.baseline), glyphs: run.glyphs))
                    }
                }
            case .stack(_, _, _, let children):
                for (child, childFrame) in zip(children, frame.children) { walk(child, childFrame) }
            case .box, .aspectRatio:
                break
            }
        }
        walk(description, frames)
        return runs
    }

    /// The drawing's own words at `origin` (the line box's top left), in `labelFamily`.
    func label(_ words: String, size: Double, color: RGBA, at origin: Point) -> [SceneItem] {
        guard let engine = text, size > 0 else { return [] }
        guard glyphs.open else { return [] }
        let lines = engine.glyphLines(of: TextContent(words, font: FontRequest(family: Self.labelFamily, size: size), maxLines: 1), width: nil)
        glyphs.spend(lines)
        return lines.flatMap { line in
            line.runs.map { run in
                .glyphs(GlyphRun(face: run.face, size: run.size, synthesis: run.synthesis, color: color, origin: Point(x: origin.x, y: origin.y + line.baseline), glyphs: run.glyphs))
            }
        }
    }

    /// The largest box of `ratio` (width / height) centred in `frame`.
    static func aspectFit(_ ratio: Double, in frame: Rect) -> Rect {
        var width = frame.size.width
        var height = width / ratio
        if height > frame.size.height {
            height = frame.size.height
            width = height * ratio
        }
        return Rect(x: frame.minX + (frame.size.width - width) / 2, y: frame.minY + (frame.size.height - height) / 2, width: width, height: height)
    }

    static func moved(_ r: Rect, _ dx: Double, _ dy: Double) -> Rect {
        Rect(x: r.origin.x + dx, y: r.origin.y + dy, width: r.size.width, height: r.size.height)
    }

    static func grown(_ r: Rect, by d: Double) -> Rect {
        Rect(x: r.origin.x - d, y: r.origin.y - d, width: r.size.width + 2 * d, height: r.size.height + 2 * d)
    }

    static func union(_ a: Rect, _ b: Rect) -> Rect {
        let minX = min(a.origin.x, b.origin.x), minY = min(a.origin.y, b.origin.y)
        let maxX = max(a.origin.x + a.size.width, b.origin.x + b.size.width)
        let maxY = max(a.origin.y + a.size.height, b.origin.y + b.size.height)
        return Rect(origin: Point(x: minX, y: minY), size: Size(width: maxX - minX, height: maxY - minY))
    }
}
