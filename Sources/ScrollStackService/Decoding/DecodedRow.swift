import ScrollStackCore

/// A row as the request decoder read it: only its plain fields when it sets none of the
/// rarely set ones, so that a stack's builder takes it without a `Row` value.
enum DecodedRow {
    case plain(id: String, content: RowContent, size: SizeRule, hidden: Bool)
    case full(Row)

    var id: String {
        switch self {
        case .plain(let id, _, _, _): id
        case .full(let row): row.id
        }
    }
}

extension ScrollStackBuilder {
    /// Appends a decoded row, its plain fields alone when that is all it has.
    mutating func append(_ row: DecodedRow) throws(StackError) {
        switch row {
        case .plain(let id, let content, let size, let hidden): try append(id: id, content: content, size: size, hidden: hidden)
        case .full(let row): try append(row)
        }
    }
}
