import JSONCodec
import MicroHTTP
import ScrollStackCore
import ScrollStackRender
import ScrollStackText

extension StackService {
    /// `GET /v1/stacks/{stack}/diff?from=R1&to=R2`: what changed between the full layouts of
    /// revisions R1 and R2 (`to` defaults to the current revision), rows matched by id
    /// (`LayoutDiff`): `{"from", "to", "inserted", "removed", "moved", "resized"}`.
    func stackDiff(_ c: RequestContext) throws(APIError) -> HTTPResponse {
        try diffResponse(c, picture: nil)
    }

    /// `GET /v1/stacks/{stack}/diff.svg`: the two layouts side by side (before | after),
    /// the changed rows outlined (`LayoutDiff.marked`), with a legend.
    func stackDiffSVG(_ c: RequestContext) throws(APIError) -> HTTPResponse {
        try diffResponse(c, picture: .svg)
    }

    /// `GET /v1/stacks/{stack}/diff.png`: the same picture as PNG (`?scale=1|2|3`).
    func stackDiffPNG(_ c: RequestContext) throws(APIError) -> HTTPResponse {
        try diffResponse(c, picture: .png(scale: try Self.scale(c)))
    }

    /// Reads both revisions (404 `revision_not_found` naming `from` or `to`), lays them out
    /// whole and answers the diff as JSON or drawn. A drawing takes a slot of `layoutGate`
    /// and keeps to the budgets of `layout.svg`/`layout.png`: at most `limits.devicesDrawnRows`
    /// rows in both panels together (422 naming `from`), `limits.pictureGlyphs` glyphs and
    /// `limits.picturePixels` pixels (422 naming `scale`, or `from` at scale 1).
    private func diffResponse(_ c: RequestContext, picture: PictureFormat?) throws(APIError) -> HTTPResponse {
        try c.allowQuery(picture.map { if case .png = $0 { ["from", "to", "scale"] } else { ["from", "to"] } } ?? ["from", "to"])
        guard let from = try c.queryInt("from", in: Int(Int64.min)...Int(Int64.max)) else {
            throw .badQuery("from", "is required: the revision to compare from")
        }
        let asked = try c.queryInt("to", in: Int(Int64.min)...Int(Int64.max))
        let id = c.parameter("stack")
        return try cachedRead(c) { stack, revision throws(APIError) in
            let to = asked ?? revision
            let before = from == revision ? stack : try self.stack(id, at: from, current: revision, field: "from")
            let after = to == revision ? stack : try self.stack(id, at: to, current: revision, field: "to")
            guard let picture else {
                let diff = LayoutDiff(before: before.layout(), after: after.layout())
                return .json(200, Self.diffJSON(diff, from: from, to: to), revision: revision)
            }
            if before.count + after.count > limits.devicesDrawnRows {
                throw .workBudgetExceeded("from", "the drawing would hold \(before.count) + \(after.count) rows, more than the "
                                          + "\(limits.devicesDrawnRows) a drawing may")
            }
            return try layoutGate.withSlot { () throws(APIError) -> HTTPResponse in
                try diffPicture(before, after, from: from, to: to, id: id, picture: picture)
            }
        }
    }

    private func diffPicture(_ before: ScrollStack, _ after: ScrollStack, from: Int, to: Int, id: String,
                             picture: PictureFormat) throws(APIError) -> HTTPResponse {
        let old = LaidOut(stack: before, layout: before.layout(), window: nil)
        let new = LaidOut(stack: after, layout: after.layout(), window: nil)
        let diff = LayoutDiff(before: old.layout, after: new.layout)
        let builder = PictureScene(text: titleMeasurer as? TextEngine, glyphs: PictureScene.GlyphBudget(limit: limits.pictureGlyphs))
        let panels = [PictureScene.Panel(title: "stack \(id) · revision \(from) (before)", laid: old),
                      PictureScene.Panel(title: "revision \(to) (after)", laid: new)]
        let scene = diff.marked(builder.scene(panels), builder: builder)
        if builder.glyphs.exceeded {
            throw .workBudgetExceeded("from", "the picture would draw more than the \(limits.pictureGlyphs) glyphs a picture may")
        }
        switch picture {
        case .svg:
            return HTTPResponse(status: 200, headers: [("Content-Type", "image/svg+xml; charset=utf-8")],
                                body: LayoutSVG.render(scene, title: "stack \(id): revision \(from) | revision \(to)"))
        case .png(let scale):
            func pixels(_ s: Int) -> Double { (scene.width * Double(s)).rounded(.up) * (scene.height * Double(s)).rounded(.up) }
            if pixels(scale) > Double(limits.picturePixels) {
                throw .workBudgetExceeded(scale > 1 && pixels(1) <= Double(limits.picturePixels) ? "scale" : "from",
                                          "the picture (\(LayoutSVG.n(scene.width))×\(LayoutSVG.n(scene.height)) pt) at scale \(scale) would have "
                                          + "\(Self.describe(pixels: pixels(scale))) pixels, more than the \(limits.picturePixels) a PNG may")
            }
            guard let png = CairoCanvas.png(scene, scale: scale) else {
                throw .workBudgetExceeded("scale", "the picture could not be drawn (out of memory): ask a smaller scale")
            }
            return HTTPResponse(status: 200, headers: [("Content-Type", "image/png")], body: png)
        }
    }

    /// The diff's JSON: ids, moves `{id, from, to}` and resizes `{id, before, after}` (frames).
    static func diffJSON(_ diff: LayoutDiff, from: Int, to: Int) -> JSON {
        .object(JSONObject([
            ("from", .integer(Int64(from))), ("to", .integer(Int64(to))),
            ("inserted", .array(diff.inserted.map { .string($0) })),
            ("removed", .array(diff.removed.map { .string($0) })),
            ("moved", .array(diff.moved.map { move in
                .object(JSONObject([("id", .string(move.id)), ("from", .integer(Int64(move.from))), ("to", .integer(Int64(move.to)))]))
            })),
            ("resized", .array(diff.resized.map { resize in
                .object(JSONObject([("id", .string(resize.id)), ("before", ModelEncoding.rect(resize.before)), ("after", ModelEncoding.rect(resize.after))]))
            })),
        ]))
    }
}
