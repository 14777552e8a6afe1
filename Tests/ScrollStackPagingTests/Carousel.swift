import ScrollStackCore
import ScrollStackPaging

/// Shared helpers: horizontal stacks of rows with zero insets, so a row is exactly its length.
enum Carousel {
    static func row(_ id: String, _ length: Double, hidden: Bool = false, title: RowTitle? = nil) -> Row {
        var row = Row(id: id, content: .view(ViewDescriptor(type: "Page")), size: .fixed(length), insets: .zero, hidden: hidden)
        row.title = title
        return row
    }

    /// A horizontal stack `width` wide with rows of `lengths` (r0, r1, …) and `paging`.
    static func stack(_ lengths: [Double], width: Double = 400, paging: PagingSettings? = PagingSettings(), spacing: Double = 0,
                      contentInsets: EdgeInsets = .zero, offset: Double = 0, hidden: Set<Int> = []) throws -> ScrollStack {
        var settings = StackSettings(axis: .horizontal, viewport: Size(width: width, height: 500), contentInsets: contentInsets,
                                     offset: Point(x: offset, y: 0), spacing: spacing)
        settings.paging = paging
        return try ScrollStack(settings: settings, rows: lengths.enumerated().map { row("r\($0.offset)", $0.element, hidden: hidden.contains($0.offset)) })
    }

    /// Every stop, in order.
    static func stops(_ stack: ScrollStack) -> [Double] {
        guard let stops = stack.pageStops() else { return [] }
        return (0..<stops.count).map { stops[$0] }
    }
}
