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
    func listPage(_ rows: [(row: Row, index: Int)], page: Range<Int>, total: Int, revision: Int, _ c: RequestContext) -> [UInt8] {
        var w = JSONWriter(capacity: 256 + 160 * rows.count)
        ModelEncoding.writeRowsOpening(rows, revision: revision, into: &w)
        ModelEncoding.writePage(page, total: total, into: &w)
        w.key(ascii: "next")
        if page.upperBound < total { w.string(c.link(replacing: "from", with: String(page.upperBound))) } else { w.null() }
        w.endObject()
        return w.take()
    }
}
