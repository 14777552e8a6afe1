import JSONCodec
import ScrollStackCore
@testable import ScrollStackService

/// The layout answers as the service built them before `ModelEncoding.writeLayout`: a `JSON`
/// tree, serialized afterwards. Kept here as the reference the writer is held to.
enum TreeLayoutEncoding {
    /// One layout answer: `layout(revision:_:)` with a carousel's members, each fit row's
    /// content frames when `contentFrames`, and for a page, `visibleRows` and
    /// `entirelyVisibleRows` of the whole viewport, `page` and `next` (a URL, or null at the end).
    static func layout(revision: Int?, _ laid: LaidOut, page: Range<Int>?, next: String?, contentFrames: Bool = false) -> JSON {
        let stack = laid.stack
        let content: ((RowLayout) -> ContentFrame?)? = contentFrames ? { stack.contentFrames(of: $0) } : nil
        guard case .object(var object) = ModelEncoding.layout(revision: revision, laid.layout, content: content) else { return .null }
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
