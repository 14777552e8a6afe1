import Jansson
import MicroHTTP
import ScrollStackCore

extension StackService {
    static let layoutQuery = ["offset", "width", "height", "window", "content"]

    /// `GET /v1/stacks/{stack}/layout`: the computed layout. `?offset=` (a number along the
    /// scroll axis, or `x,y`) and `?width=`/`?height=` override the stack's without changing
    /// it; `?window=visible` keeps only the visible rows (O(log n + k) instead of O(n)).
    ///
    /// `?revision=N` lays out the stack as it was at revision N. `?content=frames` adds each
    /// shown fit row's content node frames (and text line boxes).
    func stackLayout(_ c: RequestContext) throws(APIError) -> HTTPResponse {
        try c.allowQuery(Self.layoutQuery + ["revision"])
        let asked = try requestedRevision(c)
        return try read(c) { stack, revision throws(APIError) in
            guard let asked, asked != revision else {
                return .json(200, try layout(of: stack, revision: revision, c), revision: revision)
            }
            let past = try self.stack(c.parameter("stack"), at: asked, current: revision, field: "revision")
            return .json(200, try layout(of: past, revision: asked, c), revision: asked)
        }
    }

    /// `POST /v1/layout`: a whole stack (the create body) in, its layout out; nothing is stored.
    func statelessLayout(_ c: RequestContext) throws(APIError) -> HTTPResponse {
        try c.allowQuery(Self.layoutQuery)
        let stack = try decodeStack(try c.jsonObject(), id: "layout")
        return .json(200, try layout(of: stack, revision: nil, c))
    }

    private func layout(of stored: ScrollStack, revision: Int?, _ c: RequestContext) throws(APIError) -> JSON {
        var stack = stored
        let width = try c.queryNumber("width")
        let height = try c.queryNumber("height")
        if width != nil || height != nil {
            for (name, value) in [("width", width), ("height", height)] {
                if let value, !(0...1e9).contains(value) { throw .badQuery(name, "must be in 0…1000000000, got \(value)") }
            }
            let viewport = Size(width: width ?? stack.settings.viewport.width, height: height ?? stack.settings.viewport.height)
            // O(n) when the cross extent changes (rows are re-measured), on a copy.
            _ = try model { () throws(StackError) in try stack.update(SettingsChange(viewport: viewport)) }
        }
        let offset = try queryOffset(c, current: stack.settings.offset, axis: stack.settings.axis)
        let window: Bool
        switch c.query("window") {
        case nil, "all": window = false
        case "visible": window = true
        case let other?: throw .badQuery("window", "must be \"visible\" or \"all\", got \"\(other)\"")
        }
        let layout = window ? stack.visibleLayout(offset: offset) : stack.layout(offset: offset)
        let frames: Bool
        switch c.query("content") {
        case nil, "none": frames = false
        case "frames": frames = true
        case let other?: throw .badQuery("content", "must be \"frames\" or \"none\", got \"\(other)\"")
        }
        let encoded = ModelEncoding.layout(revision: revision, layout, content: frames ? { [stack] l in stack.contentFrames(of: l) } : nil)
        guard case .object(var answer) = encoded else { return encoded }
        for (key, value) in ModelEncoding.carouselLayout(stack, offset: offset) { answer[key] = value }
        return .object(answer)
    }

    /// `?offset=N` sets the offset along the scroll axis; `?offset=X,Y` sets both.
    private func queryOffset(_ c: RequestContext, current: Point, axis: Axis) throws(APIError) -> Point? {
        guard let text = c.query("offset") else { return nil }
        let parts = text.split(separator: ",", omittingEmptySubsequences: false).map { Double($0.trimmingSpaces) }
        switch parts.count {
        case 1:
            if let value = parts[0], value.isFinite, abs(value) <= 1e15 {
                var offset = current
                offset[axis] = value
                return offset
            }
        case 2:
            if let x = parts[0], let y = parts[1], x.isFinite, y.isFinite, abs(x) <= 1e15, abs(y) <= 1e15 { return Point(x: x, y: y) }
        default:
            break
        }
        throw .badQuery("offset", "must be a number (along the scroll axis) or x,y, each within ±1e15; got \"\(text)\"")
    }

    /// `GET /v1/stacks/{stack}/hit?x=&y=`: the row under a viewport point, or `"row": null`.
    func hitTest(_ c: RequestContext) throws(APIError) -> HTTPResponse {
        try c.allowQuery(["x", "y"])
        guard let x = try c.queryNumber("x") else { throw .badQuery("x", "is required") }
        guard let y = try c.queryNumber("y") else { throw .badQuery("y", "is required") }
        return try read(c) { stack, revision throws(APIError) in
            var hit = JSON.null
            if let layout = stack.hitTest(Point(x: x, y: y)), let row = stack.row(id: layout.id) {
                hit = .object(JSONObject([
                    ("id", .string(row.id)), ("index", .integer(Int64(layout.index))),
                    ("tappable", .bool(row.tappable)), ("highlightable", .bool(row.highlightable)),
                ] + ModelEncoding.rowLayout(layout)))
            }
            return .json(200, .object(JSONObject([("revision", .integer(Int64(revision))), ("row", hit)])), revision: revision)
        }
    }
}
