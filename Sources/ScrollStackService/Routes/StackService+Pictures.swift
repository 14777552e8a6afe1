import JSONCodec
import MicroHTTP
import ScrollStackCore
import ScrollStackRender
import ScrollStackText

/// The drawn forms of a layout answer.
enum PictureFormat {
    case svg
    /// PNG at `scale` pixels per point (1, 2 or 3).
    case png(scale: Int)
}

extension StackService {
    /// `GET /v1/stacks/{stack}/layout.svg`: the layout drawn (see `PictureScene`), with the
    /// same query as `GET …/layout`.
    func stackLayoutSVG(_ c: RequestContext) throws(APIError) -> HTTPResponse {
        try stackLayout(c, picture: .svg)
    }

    /// `GET /v1/stacks/{stack}/layout.png`: the same picture as PNG (`?scale=1|2|3`).
    func stackLayoutPNG(_ c: RequestContext) throws(APIError) -> HTTPResponse {
        try stackLayout(c, picture: .png(scale: try Self.scale(c)))
    }

    /// `POST /v1/layout.svg` and `POST /v1/layout.png`: the stateless layout drawn, whatever `Accept` says.
    func statelessLayoutSVG(_ c: RequestContext) throws(APIError) -> HTTPResponse {
        try statelessLayout(c, picture: .svg)
    }

    func statelessLayoutPNG(_ c: RequestContext) throws(APIError) -> HTTPResponse {
        try statelessLayout(c, picture: .png(scale: try Self.scale(c)))
    }

    /// `?scale=`: 1 (default), 2 or 3.
    static func scale(_ c: RequestContext) throws(APIError) -> Int {
        try c.queryInt("scale", in: 1...CairoCanvas.maxScale) ?? 1
    }

    /// The picture a layout request asks for by `Accept`: SVG when it names `image/svg+xml`,
    /// else PNG when it names `image/png`, never when it names `application/json` (an `<img>`
    /// asks so; browsers' page loads and `fetch` do not). `?scale=` goes only with PNG.
    static func wantedPicture(_ c: RequestContext) throws(APIError) -> PictureFormat? {
        var picture: PictureFormat?
        if let accept = c.request.header("accept"), !ASCIIText.contains(accept, lowercased: "application/json") {
            if ASCIIText.contains(accept, lowercased: "image/svg+xml") {
                picture = .svg
            } else if ASCIIText.contains(accept, lowercased: "image/png") {
                picture = .png(scale: try scale(c))
            }
        }
        return picture
    }

    /// The picture `given` by the route, else the one `Accept` asks for; 400 naming `scale`
    /// when `?scale=` comes without a PNG.
    static func picture(_ given: PictureFormat?, _ c: RequestContext) throws(APIError) -> PictureFormat? {
        var picture = given
        if picture == nil { picture = try wantedPicture(c) }
        if c.query("scale") != nil {
            guard case .png? = picture else { throw .badQuery("scale", "only goes with a PNG (layout.png, or Accept: image/png)") }
        }
        return picture
    }

    /// The layout drawn as `picture` (SVG or PNG) with its heading `title`: one panel, or
    /// one per device (`?devices=`). Refused with 422 `work_budget_exceeded` (or 400 naming
    /// `devices`) before drawing more rows, glyphs or pixels than a picture may.
    func pictureResponse(_ stack: ScrollStack, revision: Int?, _ query: LayoutQuery, picture: PictureFormat, title: String) throws(APIError) -> HTTPResponse {
        let vary = [("Vary", "Accept")]
        var panels: [PictureScene.Panel] = []
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
                panels.append(PictureScene.Panel(title: "\(title)\(suffix) · \(device.name) \(size)", laid: laid))
            }
        } else {
            // A full layout draws every row: refused before it is laid out when too many.
            if !query.visibleOnly && query.page == nil && stack.count > limits.devicesDrawnRows {
                throw .workBudgetExceeded("window", "the drawing would hold \(stack.count) rows, more than the \(limits.devicesDrawnRows) a drawing may: "
                                          + "ask window=visible or a page (from, limit)")
            }
            // A window or page can hold as many (a tall viewport of thin rows): checked once laid out.
            let laid = try query.layout(of: stack, viewport: nil)
            if laid.layout.rows.count > limits.devicesDrawnRows {
                throw .workBudgetExceeded("window", "the drawing would hold \(laid.layout.rows.count) rows, more than the \(limits.devicesDrawnRows) "
                                          + "a drawing may: ask a page (from, limit) or a smaller viewport")
            }
            panels.append(PictureScene.Panel(title: title + suffix, laid: laid))
        }
        let embedded = try embeddedLayouts(of: stack, query)
        let builder = PictureScene(text: titleMeasurer as? TextEngine, glyphs: PictureScene.GlyphBudget(limit: limits.pictureGlyphs), embedded: embedded)
        let scene = builder.scene(panels)
        if builder.glyphs.exceeded {
            throw .workBudgetExceeded("window", "the picture would draw more than the \(limits.pictureGlyphs) glyphs a picture may: "
                                      + "ask window=visible, a page (from, limit) or fewer devices")
        }
        let heading = panels.map(\.title).joined(separator: " | ")
        switch picture {
        case .svg:
            var headers = [("Content-Type", "image/svg+xml; charset=utf-8")]
            // Its own entity tag: a cache holding the JSON of the same URL must never take the
            // drawing for it (or the other way round) when it revalidates.
            if let revision { headers.append(("ETag", Self.pictureTag(revision, embedded, kind: ".svg"))) }
            return HTTPResponse(status: 200, headers: headers + vary, body: LayoutSVG.render(scene, title: heading))
        case .png(let scale):
            try checkPixels(scene, scale: scale)
            guard let png = CairoCanvas.png(scene, scale: scale) else {
                throw .workBudgetExceeded("scale", "the picture could not be drawn (out of memory): ask a smaller scale, window=visible or a page")
            }
            var headers = [("Content-Type", "image/png")]
            if let revision { headers.append(("ETag", Self.pictureTag(revision, embedded, kind: ".png@\(scale)"))) }
            return HTTPResponse(status: 200, headers: headers + vary, body: png)
        }
    }

    /// A picture's entity tag: `"N.svg"` or `"N.png@S"`, with the tree's hash after the
    /// revision when it draws embedded stacks (`"N.<16 hex>.svg"`), so that it changes when
    /// any stack drawn changes.
    static func pictureTag(_ revision: Int, _ embedded: EmbeddedLayouts?, kind: String) -> String {
        guard let embedded, !embedded.revisions.isEmpty else { return "\"\(revision)\(kind)\"" }
        return embedded.entityTag(revision: revision, suffix: kind)
    }

    /// A pixel count for a message, never converted to an `Int` it may not fit (a sheet of
    /// huge panels has more pixels than `Int` holds).
    static func describe(pixels: Double) -> String {
        pixels < 1e15 ? String(Int(pixels)) : "about \(LayoutSVG.n((pixels / 1e15).rounded()))·10¹⁵"
    }

    /// Refuses a PNG of more than `limits.picturePixels` pixels, before it is drawn: 422
    /// `work_budget_exceeded` naming `scale` when scale 1 would fit, else `window`. O(1).
    func checkPixels(_ scene: Scene, scale: Int) throws(APIError) {
        func pixels(_ s: Int) -> Double { (scene.width * Double(s)).rounded(.up) * (scene.height * Double(s)).rounded(.up) }
        guard pixels(scale) > Double(limits.picturePixels) else { return }
        let size = "\(LayoutSVG.n(scene.width))×\(LayoutSVG.n(scene.height)) pt"
        if scale > 1 && pixels(1) <= Double(limits.picturePixels) {
            throw .workBudgetExceeded("scale", "the picture (\(size)) at scale \(scale) would have \(Self.describe(pixels: pixels(scale))) pixels, more than the "
                                      + "\(limits.picturePixels) a PNG may: ask a smaller scale")
        }
        throw .workBudgetExceeded("window", "the picture (\(size)) would have \(Self.describe(pixels: pixels(scale))) pixels, more than the \(limits.picturePixels) a PNG may: "
                                  + "ask window=visible, a page (from, limit) or fewer devices")
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
