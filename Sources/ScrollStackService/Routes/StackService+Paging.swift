import JSONCodec
import ScrollStackCore

extension StackService {
    /// `?from=&limit=` on the rows list: the page asked for, or nil when neither is given.
    /// `limit` defaults to 1000 and is at most `LayoutQuery.pageLimit`.
    static func rowsPage(_ c: RequestContext) throws(APIError) -> Range<Int>? {
        let from = try c.queryInt("from", in: 0...Int(Int32.max))
        let limit = try c.queryInt("limit", in: 1...LayoutQuery.pageLimit)
        guard from != nil || limit != nil else { return nil }
        let start = from ?? 0
        return start..<(start + (limit ?? 1000))
    }

    /// `{"revision", "rows", "page": {"from", "limit", "total"}, "next"}`: one page of a rows
    /// list of `total` rows; `next` is the URL of the following page, or null after the last.
    func listPage(_ rows: [(row: Row, index: Int)], page: Range<Int>, total: Int, revision: Int, _ c: RequestContext) -> JSON {
        let next: JSON = page.upperBound < total ? .string(c.link(replacing: "from", with: String(page.upperBound))) : .null
        return .object(JSONObject([
            ("revision", .integer(Int64(revision))),
            ("rows", .array(rows.map { ModelEncoding.row($0.row, index: $0.index) })),
            ("page", .object(JSONObject([
                ("from", .integer(Int64(page.lowerBound))), ("limit", .integer(Int64(page.count))), ("total", .integer(Int64(total))),
            ]))),
            ("next", next),
        ]))
    }
}
