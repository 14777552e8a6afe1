import JSONCodec
import ScrollStackCore
@testable import ScrollStackService

/// The layout answers built as a `JSON` tree and serialized afterwards: a second, plain
/// encoding that `ModelEncoding.writeLayout` (which copies repeated numbers, and writes in
/// one pass) is held to on random stacks.
enum TreeLayoutEncoding {
    static func visibility(_ v: Visibility) -> [(String, JSON)] {
        var fraction = (v.fraction * 1_000_000).rounded() / 1_000_000
        if case .partial = v { fraction = min(max(fraction, 0.000001), 0.999999) }
        return [("visibility", .string(v.name)), ("visibleFraction", .number(fraction))]
    }

    static func rowLayout(_ l: RowLayout) -> [(String, JSON)] {
        [
            ("frame", ModelEncoding.rect(l.frame)),
            ("contentFrame", ModelEncoding.rect(l.contentFrame)),
            ("separatorFrame", l.separatorFrame.map(ModelEncoding.rect) ?? .null),
        ] + visibility(l.visibility)
    }

    /// The layout's members; with `content`, each row it answers a frame tree for gets a
    /// `"content"` member (`?content=frames`).
    static func layout(revision: Int?, _ layout: StackLayout, content: ((RowLayout) -> ContentFrame?)? = nil) -> JSON {
        var visible: [JSON] = []
        var entire: [JSON] = []
        var rows: [JSON] = []
        for l in layout.rows {
            var members = [("id", JSON.string(l.id)), ("index", .integer(Int64(l.index)))] + rowLayout(l)
            if let frames = content?(l) { members.append(("content", ModelEncoding.contentFrame(frames))) }
            rows.append(.object(JSONObject(members)))
            if l.visibility.isVisible { visible.append(.string(l.id)) }
            if l.visibility == .entire { entire.append(.string(l.id)) }
        }
        var members: [(String, JSON)] = revision.map { [("revision", .integer(Int64($0)))] } ?? []
        members += [
            ("axis", .string(layout.axis.rawValue)),
            ("viewport", ModelEncoding.size(layout.viewport)),
            ("offset", ModelEncoding.point(layout.offset)),
            ("contentSize", ModelEncoding.computedSize(layout.contentSize)),
            ("rows", .array(rows)),
            ("visibleRows", .array(visible)),
            ("entirelyVisibleRows", .array(entire)),
        ]
        return .object(JSONObject(members))
    }

    /// One layout answer: `layout(revision:_:)` with a carousel's members, each fit row's
    /// content frames when `contentFrames`, and for a page, `visibleRows` and
    /// `entirelyVisibleRows` of the whole viewport, `page` and `next` (a URL, or null at the end).
    static func layout(revision: Int?, _ laid: LaidOut, page: Range<Int>?, next: String?, contentFrames: Bool = false) -> JSON {
        let stack = laid.stack
        let content: ((RowLayout) -> ContentFrame?)? = contentFrames ? { stack.contentFrames(of: $0) } : nil
        guard case .object(var object) = layout(revision: revision, laid.layout, content: content) else { return .null }
        for (key, value) in ModelEncoding.carouselLayout(laid.stack, offset: laid.layout.offset) { object[key] = value }
        if let page, let window = laid.window {
            object["visibleRows"] = .array(window.visibleRows.map(JSON.string))
            object["entirelyVisibleRows"] = .array(window.entirelyVisibleRows.map(JSON.string))
            object["page"] = .object(JSONObject([
                ("from", .integer(Int64(page.lowerBound))), ("limit", .integer(Int64(page.count))),
                ("total", .integer(Int64(laid.stack.count))),
            ]))
            object["next"] = next.map(JSON.string) ?? .null
        }
        return .object(object)
    }

    /// `{"revision"?, "layouts": [{"device": {"name", "width", "height", "platform",
    /// "orientation", "safeArea"}, …layout}]}`.
    static func deviceLayouts(revision: Int?, _ layouts: [(device: Device, layout: JSON)]) -> JSON {
        var members: [(String, JSON)] = revision.map { [("revision", .integer(Int64($0)))] } ?? []
        members.append(("layouts", .array(layouts.map { entry in
            var object = entry.layout.objectValue ?? JSONObject()
            object["revision"] = nil
            let device = JSON.object(JSONObject([
                ("name", .string(entry.device.name)), ("width", .number(entry.device.size.width)), ("height", .number(entry.device.size.height)),
                ("platform", .string(entry.device.platform.rawValue)), ("orientation", .string(entry.device.orientation.rawValue)),
                ("safeArea", ModelEncoding.insets(entry.device.safeArea)),
            ]))
            return .object(JSONObject([("device", device)] + Array(object.map { ($0.key, $0.value) })))
        })))
        return .object(JSONObject(members))
    }
}
