import ScrollStackCore

/// One row in snapshot format 2:
///
///     flags: varint (`RowFlag`)
///     id, type: string; instance?, properties?: string
///     size: vertical then horizontal rule, each 0 (fit) or 1 + double (fixed)
///     content?: a content node (below); insets?: 4 doubles (top, left, bottom, right)
///     separator?: mask u8 (hidden, thickness, insets, color), then those present
///     title?: mask u8 (text, width, selectedWidth), then those present
///     transition?: mask u8 (hide, show), then each look present: alpha, translate x and y,
///         scale (4 doubles)
///     style?: mask u8 (background, cornerRadius, border, textColor, image), then those present:
///         colours as strings, cornerRadius a double, border width (double) and colour,
///         image aspect ratio (double) and fill
///     stack?: string (the embedded stack's id)
///
/// A content node: kind u8 — 0 box (mask u8 width, height; the doubles present), 1 aspect
/// ratio (double), 2 stack (axis u8, spacing, padding: 4 doubles, varint count, children),
/// 3 text (text, font family: strings; font size: double; weight: varint; style: string;
/// mask u8 (lineHeight, maxLines, ellipsis: set when true); letterSpacing: double; lineHeight?: double; maxLines?:
/// varint; alignment: string) — then mask u8 (minWidth, maxWidth, minHeight, maxHeight) and
/// the doubles present.
extension SnapshotFormat {
    /// Bits of a row's `flags`. A bit this server does not know makes the snapshot unreadable
    /// (it was written by a newer server).
    enum RowFlag {
        static let controller = 1 << 0, instance = 1 << 1, properties = 1 << 2, content = 1 << 3
        static let insets = 1 << 4, hidden = 1 << 5, tappable = 1 << 6, highlightable = 1 << 7
        static let separator = 1 << 8, title = 1 << 9, transition = 1 << 10, style = 1 << 11
        static let stack = 1 << 12
        static let known = (1 << 13) - 1
    }

    static func encode(_ row: Row, into w: inout ByteWriter) {
        var flags = 0
        if row.contentDescription != nil { flags |= RowFlag.content }
        if row.insets != nil { flags |= RowFlag.insets }
        if row.hidden { flags |= RowFlag.hidden }
        if row.tappable { flags |= RowFlag.tappable }
        if row.highlightable { flags |= RowFlag.highlightable }
        if !row.separator.isEmpty { flags |= RowFlag.separator }
        if row.title != nil { flags |= RowFlag.title }
        if row.transition != nil { flags |= RowFlag.transition }
        if row.style != nil { flags |= RowFlag.style }
        if row.stack != nil { flags |= RowFlag.stack }
        encodeHead(flags: flags, id: row.id, content: row.content, size: row.size, into: &w)
        if let content = row.contentDescription { encode(content, into: &w) }
        if let insets = row.insets { encode(insets, into: &w) }
        if !row.separator.isEmpty {
            let s = row.separator
            w.byte(mask(s.hidden != nil, s.thickness != nil, s.insets != nil, s.color != nil))
            if let hidden = s.hidden { w.byte(hidden ? 1 : 0) }
            if let thickness = s.thickness { w.double(thickness) }
            if let insets = s.insets { encode(insets, into: &w) }
            if let color = s.color { w.string(color) }
        }
        if let title = row.title {
            w.byte(mask(title.text != nil, title.width != nil, title.selectedWidth != nil))
            if let text = title.text { w.string(text) }
            for value in [title.width, title.selectedWidth] { if let value { w.double(value) } }
        }
        if let transition = row.transition {
            w.byte(mask(transition.hide != nil, transition.show != nil))
            for look in [transition.hide, transition.show] {
                guard let look else { continue }
                for value in [look.alpha, look.translate.x, look.translate.y, look.scale] { w.double(value) }
            }
        }
        if let style = row.style {
            w.byte(mask(style.background != nil, style.cornerRadius != nil, style.border != nil, style.textColor != nil, style.image != nil))
            if let background = style.background { w.string(background) }
            if let radius = style.cornerRadius { w.double(radius) }
            if let border = style.border {
                w.double(border.width)
                w.string(border.color)
            }
            if let textColor = style.textColor { w.string(textColor) }
            if let image = style.image {
                w.double(image.aspectRatio)
                w.string(image.fill)
            }
        }
        if let embedded = row.stack { w.string(embedded) }
    }

    /// A row of a batch, as `encode(_: Row, into:)` writes the same row.
    static func encode(_ element: RowBatch.Element, into w: inout ByteWriter) {
        switch element {
        case .plain(let id, let content, let size, let hidden):
            encodeHead(flags: hidden ? RowFlag.hidden : 0, id: id, content: content, size: size, into: &w)
        case .whole(let row):
            encode(row, into: &w)
        }
    }

    /// The fields every row has, after its flags: `flags` with the content's own added.
    private static func encodeHead(flags: Int, id: String, content: RowContent, size: SizeRule, into w: inout ByteWriter) {
        var flags = flags
        let type: String, instance: String?, properties: String?
        switch content {
        case .controller(let c):
            (type, instance, properties) = (c.type, c.instance, c.properties)
            flags |= RowFlag.controller
        case .view(let v):
            (type, instance, properties) = (v.type, nil, v.properties)
        }
        if instance != nil { flags |= RowFlag.instance }
        if properties != nil { flags |= RowFlag.properties }
        w.varint(flags)
        w.string(id)
        w.string(type)
        if let instance { w.string(instance) }
        if let properties { w.string(properties) }
        encode(size.vertical, into: &w)
        encode(size.horizontal, into: &w)
    }

    /// Flags of the fields `ScrollStackBuilder.append(id:content:size:hidden:)` takes; a row
    /// with any other is decoded into a `Row`.
    static let plainFlags = RowFlag.controller | RowFlag.instance | RowFlag.properties | RowFlag.hidden

    static func row(_ r: inout ByteReader) throws(APIError) -> Row {
        let (flags, id, content, size) = try rowHead(&r)
        return try row(&r, flags: flags, id: id, content: content, size: size)
    }

    /// Reads the next row into `builder`: a row with only the plain fields goes in without a
    /// `Row` value. `refused` maps the model's error.
    static func appendRow(_ r: inout ByteReader, to builder: inout ScrollStackBuilder,
                          refused: (StackError) -> APIError) throws(APIError) {
        let (flags, id, content, size) = try rowHead(&r)
        if flags & ~plainFlags == 0 {
            do { try builder.append(id: id, content: content, size: size, hidden: flags & RowFlag.hidden != 0) } catch { throw refused(error) }
        } else {
            let row = try row(&r, flags: flags, id: id, content: content, size: size)
            do { try builder.append(row) } catch { throw refused(error) }
        }
    }

    /// A row's flags, id, content and size: the fields every row has.
    private static func rowHead(_ r: inout ByteReader) throws(APIError) -> (flags: Int, id: String, content: RowContent, size: SizeRule) {
        let flags = try r.varint()
        guard flags & ~RowFlag.known == 0 else { throw r.damaged("a row has flags \(flags) this server does not know (a newer server wrote it?)") }
        let id = try r.string()
        let type = try r.string()
        let instance = flags & RowFlag.instance != 0 ? try r.string() : nil
        let properties = flags & RowFlag.properties != 0 ? try r.string() : nil
        let content: RowContent = flags & RowFlag.controller != 0
            ? .controller(ControllerDescriptor(type: type, instance: instance, properties: properties))
            : .view(ViewDescriptor(type: type, properties: properties))
        let size = SizeRule(vertical: try lengthRule(&r), horizontal: try lengthRule(&r))
        return (flags, id, content, size)
    }

    /// The rest of a row whose head `rowHead` read.
    private static func row(_ r: inout ByteReader, flags: Int, id: String, content: RowContent, size: SizeRule) throws(APIError) -> Row {
        let description = flags & RowFlag.content != 0 ? try contentDescription(&r, depth: 0) : nil
        var row = Row(id: id, content: content, size: size, contentDescription: description,
                      insets: flags & RowFlag.insets != 0 ? try insets(&r) : nil,
                      hidden: flags & RowFlag.hidden != 0, tappable: flags & RowFlag.tappable != 0,
                      highlightable: flags & RowFlag.highlightable != 0)
        if flags & RowFlag.separator != 0 {
            let m = try r.byte()
            row.separator.hidden = m & 1 != 0 ? try r.byte() != 0 : nil
            row.separator.thickness = m & 2 != 0 ? try r.double() : nil
            row.separator.insets = m & 4 != 0 ? try insets(&r) : nil
            row.separator.color = m & 8 != 0 ? try r.string() : nil
        }
        if flags & RowFlag.title != 0 {
            let m = try r.byte()
            row.title = RowTitle(text: m & 1 != 0 ? try r.string() : nil, width: m & 2 != 0 ? try r.double() : nil,
                                 selectedWidth: m & 4 != 0 ? try r.double() : nil)
        }
        if flags & RowFlag.transition != 0 {
            let m = try r.byte()
            row.transition = RowTransition(hide: m & 1 != 0 ? try look(&r) : nil, show: m & 2 != 0 ? try look(&r) : nil)
        }
        if flags & RowFlag.style != 0 {
            let m = try r.byte()
            var style = RowStyle()
            if m & 1 != 0 { style.background = try r.string() }
            if m & 2 != 0 { style.cornerRadius = try r.double() }
            if m & 4 != 0 { style.border = RowStyle.Border(width: try r.double(), color: try r.string()) }
            if m & 8 != 0 { style.textColor = try r.string() }
            if m & 16 != 0 { style.image = RowStyle.ImagePlaceholder(aspectRatio: try r.double(), fill: try r.string()) }
            row.style = style
        }
        if flags & RowFlag.stack != 0 { row.stack = try r.string() }
        return row
    }

    static func text(_ r: inout ByteReader) throws(APIError) -> TextContent {
        let text = try r.string()
        let family = try r.string(), size = try r.double(), weight = try r.varint()
        let styleName = try r.string()
        guard let style = FontRequest.Style(rawValue: styleName) else { throw r.damaged("unknown font style \"\(styleName)\"") }
        let m = try r.byte()
        let letterSpacing = try r.double()
        let lineHeight = m & 1 != 0 ? try r.double() : nil
        let maxLines = m & 2 != 0 ? try r.varint() : nil
        let alignmentName = try r.string()
        guard let alignment = TextContent.Alignment(rawValue: alignmentName) else { throw r.damaged("unknown text alignment \"\(alignmentName)\"") }
        return TextContent(text, font: FontRequest(family: family, size: size, weight: weight, style: style), lineHeight: lineHeight,
                           letterSpacing: letterSpacing, maxLines: maxLines, alignment: alignment, ellipsis: m & 4 != 0)
    }

    static func look(_ r: inout ByteReader) throws(APIError) -> RowLook {
        RowLook(alpha: try r.double(), translate: Point(x: try r.double(), y: try r.double()), scale: try r.double())
    }

    static func mask(_ bits: Bool...) -> UInt8 {
        var m: UInt8 = 0
        for (i, bit) in bits.enumerated() where bit { m |= 1 << UInt8(i) }
        return m
    }

    static func encode(_ rule: LengthRule, into w: inout ByteWriter) {
        switch rule {
        case .fit: w.byte(0)
        case .fixed(let length):
            w.byte(1)
            w.double(length)
        }
    }

    static func lengthRule(_ r: inout ByteReader) throws(APIError) -> LengthRule {
        switch try r.byte() {
        case 0: return .fit
        case 1: return .fixed(try r.double())
        case let tag: throw r.damaged("unknown length rule \(tag)")
        }
    }

    static func encode(_ insets: EdgeInsets, into w: inout ByteWriter) {
        for value in [insets.top, insets.left, insets.bottom, insets.right] { w.double(value) }
    }

    static func insets(_ r: inout ByteReader) throws(APIError) -> EdgeInsets {
        EdgeInsets(top: try r.double(), left: try r.double(), bottom: try r.double(), right: try r.double())
    }

    static func encode(_ d: ContentDescription, into w: inout ByteWriter) {
        switch d.kind {
        case .box(let width, let height):
            w.byte(0)
            w.byte(mask(width != nil, height != nil))
            for value in [width, height] { if let value { w.double(value) } }
        case .aspectRatio(let ratio):
            w.byte(1)
            w.double(ratio)
        case .stack(let axis, let spacing, let padding, let children):
            w.byte(2)
            w.byte(axis == .vertical ? 0 : 1)
            w.double(spacing)
            encode(padding, into: &w)
            w.varint(children.count)
            for child in children { encode(child, into: &w) }
        case .text(let t):
            w.byte(3)
            w.string(t.text)
            w.string(t.font.family)
            w.double(t.font.size)
            w.varint(t.font.weight)
            w.string(t.font.style.rawValue)
            w.byte(mask(t.lineHeight != nil, t.maxLines != nil, t.ellipsis))
            w.double(t.letterSpacing)
            if let lineHeight = t.lineHeight { w.double(lineHeight) }
            if let maxLines = t.maxLines { w.varint(maxLines) }
            w.string(t.alignment.rawValue)
        }
        w.byte(mask(d.minWidth != nil, d.maxWidth != nil, d.minHeight != nil, d.maxHeight != nil))
        for value in [d.minWidth, d.maxWidth, d.minHeight, d.maxHeight] { if let value { w.double(value) } }
    }

    /// A content node; nesting is bounded as the model bounds it (64 levels).
    static func contentDescription(_ r: inout ByteReader, depth: Int) throws(APIError) -> ContentDescription {
        guard depth < 64 else { throw r.damaged("content nests deeper than 64 levels") }
        let kind: ContentDescription.Kind
        switch try r.byte() {
        case 0:
            let m = try r.byte()
            kind = .box(width: m & 1 != 0 ? try r.double() : nil, height: m & 2 != 0 ? try r.double() : nil)
        case 1:
            kind = .aspectRatio(try r.double())
        case 2:
            let axis: Axis
            switch try r.byte() {
            case 0: axis = .vertical
            case 1: axis = .horizontal
            case let tag: throw r.damaged("unknown axis \(tag)")
            }
            let spacing = try r.double()
            let padding = try insets(&r)
            let count = try r.varint()
            var children: [ContentDescription] = []
            for _ in 0..<count { children.append(try contentDescription(&r, depth: depth + 1)) }
            kind = .stack(axis: axis, spacing: spacing, padding: padding, children: children)
        case 3:
            kind = .text(try text(&r))
        case let tag:
            throw r.damaged("unknown content kind \(tag)")
        }
        let m = try r.byte()
        return ContentDescription(kind, minWidth: m & 1 != 0 ? try r.double() : nil, maxWidth: m & 2 != 0 ? try r.double() : nil,
                                  minHeight: m & 4 != 0 ? try r.double() : nil, maxHeight: m & 8 != 0 ? try r.double() : nil)
    }
}
