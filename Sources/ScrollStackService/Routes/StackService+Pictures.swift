import Jansson
import MicroHTTP
import ScrollStackCore

extension StackService {
    /// `GET /v1/stacks/{stack}/layout.svg`: the layout drawn (see `LayoutSVG`), with the same
    /// query as `GET …/layout`.
    func stackLayoutSVG(_ c: RequestContext) throws(APIError) -> HTTPResponse {
        try stackLayout(c, svg: true)
    }

    /// Whether a layout request asks for SVG: its `Accept` names `image/svg+xml` and not
    /// `application/json` (an `<img>` asks so; browsers' page loads and `fetch` do not).
    static func wantsSVG(_ c: RequestContext) -> Bool {
        guard let accept = c.request.header("accept") else { return false }
        return ASCIIText.contains(accept, lowercased: "image/svg+xml") && !ASCIIText.contains(accept, lowercased: "application/json")
    }

    /// The layout answer as JSON or as SVG. Both carry `Vary: Accept`, since the layout
    /// routes answer either by `Accept`; the SVG's ETag is `"N.svg"` (never answered 304).
    /// A drawing or a layout for devices takes a slot of `layoutGate` unless `gated` (the
    /// caller holds one).
    func layoutResponse(_ stack: ScrollStack, revision: Int?, _ query: LayoutQuery, _ c: RequestContext, svg: Bool, title: String,
                        gated: Bool = false) throws(APIError) -> HTTPResponse {
        try checkLayoutWork(stack, query)
        guard gated || (!svg && query.devices == nil) else {
            return try layoutGate.withSlot { () throws(APIError) -> HTTPResponse in
                try layoutResponse(stack, revision: revision, query, c, svg: svg, title: title, gated: true)
            }
        }
        let vary = [("Vary", "Accept")]
        guard svg else {
            if let streamed = try streamedLayout(stack, revision: revision, query) { return streamed }
            return .json(200, text: try layoutAnswer(stack, revision: revision, query, c), revision: revision, headers: vary)
        }
        var panels: [LayoutSVG.Panel] = []
        let suffix = revision.map { " · revision \($0)" } ?? ""
        if let devices = query.devices {
            var drawn = 0
            for device in devices {
                let size = "\(LayoutSVG.n(device.size.width))×\(LayoutSVG.n(device.size.height))"
                let laid = try query.layout(of: stack, viewport: device.size)
                drawn += laid.layout.rows.count
                if drawn > limits.devicesDrawnRows {
                    throw .invalid("devices", "the drawings of \(devices.count) devices would hold more than \(limits.devicesDrawnRows) rows "
                                   + "(the first \(panels.count + 1) hold \(drawn)): name fewer devices, or ask window=visible or a page (from, limit)")
                }
                panels.append(LayoutSVG.Panel(title: "\(title)\(suffix) · \(device.name) \(size)", laid: laid))
            }
        } else {
            // A full layout draws every row: refused before it is laid out when too many.
            if !query.visibleOnly && query.page == nil && stack.count > limits.devicesDrawnRows {
                throw .workBudgetExceeded("window", "the drawing would hold \(stack.count) rows, more than the \(limits.devicesDrawnRows) a drawing may: "
                                          + "ask window=visible or a page (from, limit)")
            }
            panels.append(LayoutSVG.Panel(title: title + suffix, laid: try query.layout(of: stack, viewport: nil)))
        }
        var headers = [("Content-Type", "image/svg+xml; charset=utf-8")]
        // Its own entity tag: a cache holding the JSON of the same URL must never take the
        // drawing for it (or the other way round) when it revalidates.
        if let revision { headers.append(("ETag", "\"\(revision).svg\"")) }
        return HTTPResponse(status: 200, headers: headers + vary, body: LayoutSVG.render(panels))
    }
}

extension StackService {
    /// `GET /view/` and `GET /view/{stack}`: the viewer page (`ViewerPage`). It holds no data
    /// (it asks the API, with the reader's token), so it needs no token itself.
    func viewer(_ c: RequestContext) throws(APIError) -> HTTPResponse {
        try c.allowQuery([])
        return HTTPResponse(status: 200, headers: [("Content-Type", "text/html; charset=utf-8"), ("Cache-Control", "no-cache")],
                            body: Array(ViewerPage.html.utf8))
    }
}
