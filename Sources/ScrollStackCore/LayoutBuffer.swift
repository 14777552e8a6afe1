/// Every row's layout in one flat, reusable buffer: what `ScrollStack.layout(offset:)`
/// computes, kept as plain numbers per row (extents along the main and cross axis, the
/// visibility, the row's handle) instead of `RowLayout` values with their id strings and
/// optional rects. `ScrollStack.layout(into:offset:)` fills it in one pass; filling a buffer
/// that already holds as many rows reuses its memory.
///
/// Reading a row back (`self[i]`, `frame(at:)`, …) gives exactly the values of
/// `layout(offset:).rows[i]`. Every accessor is O(1).
///
/// The buffer shares the stack's id column instead of copying it; while a filled buffer
/// is kept, the stack's next change of its ids copies the one page of the column it
/// changes (`PagedColumn`).
public struct LayoutBuffer: Sendable {
    /// One row's numbers. Hidden rows have `length` 0; `separatorThickness` is NaN when the
    /// row draws no separator.
    @usableFromInline struct Record: Sendable {
        @usableFromInline var start: Double
        @usableFromInline var length: Double
        @usableFromInline var contentStart: Double
        @usableFromInline var contentLength: Double
        @usableFromInline var contentCrossStart: Double
        @usableFromInline var contentCrossLength: Double
        @usableFromInline var separatorThickness: Double
        @usableFromInline var separatorCrossStart: Double
        @usableFromInline var separatorCrossLength: Double
        @usableFromInline var visibility: Visibility
        @usableFromInline var handle: Int32
    }

    /// The scroll axis of the stack laid out.
    public internal(set) var axis: Axis = .vertical
    /// The viewport's size.
    public internal(set) var viewport = Size(width: 0, height: 0)
    /// The offset the layout was computed at.
    public internal(set) var offset = Point(x: 0, y: 0)
    /// The size of the scrollable content.
    public internal(set) var contentSize = Size(width: 0, height: 0)
    @usableFromInline var records: [Record] = []
    /// The stack's ids by handle when it was laid out (shared with the stack, not copied).
    var ids = PagedColumn<String>()

    public init() {}

    /// The number of rows laid out.
    public var count: Int { records.count }

    // The accessors of a row's numbers are inlinable: an encoder reads them for every row
    // of a big answer, and a call each was about 8 % of its time.

    /// The row's frame in content coordinates.
    @inlinable public func frame(at index: Int) -> Rect {
        let r = records[index]
        return Rect(axis: axis, mainOrigin: r.start, mainLength: r.length, crossOrigin: 0, crossLength: contentSize[axis.cross])
    }

    /// The row's content frame, inside its insets.
    @inlinable public func contentFrame(at index: Int) -> Rect {
        let r = records[index]
        return Rect(axis: axis, mainOrigin: r.contentStart, mainLength: r.contentLength,
                    crossOrigin: r.contentCrossStart, crossLength: r.contentCrossLength)
    }

    /// The row's separator line, or nil when it draws none.
    @inlinable public func separatorFrame(at index: Int) -> Rect? {
        let r = records[index]
        guard !r.separatorThickness.isNaN else { return nil }
        return Rect(axis: axis, mainOrigin: (r.start + r.length) - r.separatorThickness, mainLength: r.separatorThickness,
                    crossOrigin: r.separatorCrossStart, crossLength: r.separatorCrossLength)
    }

    /// The row's visibility in the viewport at `offset`.
    @inlinable public func visibility(at index: Int) -> Visibility { records[index].visibility }

    /// The row's id.
    public func id(at index: Int) -> String { ids[Int(records[index].handle)] }

    /// The row's layout as `ScrollStack.layout(offset:)` gives it.
    public subscript(index: Int) -> RowLayout {
        RowLayout(id: id(at: index), index: index, frame: frame(at: index), contentFrame: contentFrame(at: index),
                  separatorFrame: separatorFrame(at: index), visibility: visibility(at: index))
    }

    /// The whole layout as `ScrollStack.layout(offset:)` gives it. O(n).
    public var stackLayout: StackLayout {
        StackLayout(axis: axis, viewport: viewport, offset: offset, contentSize: contentSize, rows: (0..<count).map { self[$0] })
    }
}
