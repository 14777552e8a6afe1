import JSONCodec
import MicroHTTP
import ScrollStackCore

extension ModelEncoding {
    /// The rows list (`GET …/rows`) produced a piece at a time: `{"revision", "rows"}` with
    /// every row `matching` accepts (every row when nil), each as `writeRow` writes it,
    /// the same bytes as the whole-body answer. A piece ends after `rowsPerPiece` rows written
    /// or `rowsPerPiece` × 8 rows read, so a filter that keeps few rows still hands out
    /// pieces (and notices a client gone) regularly.
    ///
    /// - Complexity: O(log n) per row read (`row(at:)`), O(n log n) in all; O(piece) memory
    ///   beyond the stack's own copy-on-write copy.
    static func rowsSource(revision: Int, _ stack: ScrollStack, matching: ((Row) -> Bool)? = nil) -> HTTPBodySource {
        var w = JSONWriter(capacity: rowsPerPiece * 320)
        var next = -1
        return HTTPBodySource { out in
            if next < 0 {
                w.beginObject()
                w.key(ascii: "revision")
                w.integer(Int64(revision))
                w.key(ascii: "rows")
                w.beginArray()
                next = 0
            }
            if next < stack.count {
                let end = min(stack.count, next + rowsPerPiece * 8)
                var written = 0
                while next < end && written < rowsPerPiece {
                    let row = stack.row(at: next)
                    if matching?(row) ?? true {
                        writeRow(row, index: next, into: &w)
                        written += 1
                    }
                    next += 1
                }
                w.flush(into: &out)
                return true
            }
            w.endArray()
            w.endObject()
            w.flush(into: &out)
            return false
        }
    }
}
