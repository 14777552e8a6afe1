/// How a stack pages (CustomPageableCollectionView's `pagingConfiguration`). Data
/// only: page sizes, stops and settling are computed by the `ScrollStackPaging` module.
public struct PagingSettings: Sendable, Hashable {
    /// The length of a page along the scroll axis. Uniform pages (`absolute`, `fraction`) are
    /// the stack's spacing apart, so stops are page length + spacing apart.
    public enum PageSize: Sendable, Hashable {
        /// A fixed length in points (> 0).
        case absolute(Double)
        /// A fraction in (0, 1] of the paging area (the viewport less `sizeInsets` and the
        /// content insets chosen by `contentInsetEdges`).
        case fraction(Double)
        /// Every shown row is a page.
        case rows
    }

    /// Which edge of a page a stop aligns with the paging area. `center` also widens the
    /// clamp range so the first and last pages can be centred (`ScrollStack.centringInsets`).
    public enum Alignment: String, Sendable, Hashable, CaseIterable {
        case leading, center, trailing
    }

    /// One side of the viewport, naming a content inset the paging takes into account.
    public enum Edge: String, Sendable, Hashable, CaseIterable, Comparable {
        case top, left, bottom, right

        public static func < (a: Edge, b: Edge) -> Bool {
            allCases.firstIndex(of: a)! < allCases.firstIndex(of: b)!
        }
    }

    public var size: PageSize
    public var alignment: Alignment
    /// Insets taken off the paging area before a `fraction` is applied.
    public var sizeInsets: EdgeInsets
    /// Moves the alignment point further in from the paging area's edges.
    public var positionInsets: EdgeInsets
    /// The content insets the paging area leaves out; all four by default.
    public var contentInsetEdges: Set<Edge>

    /// Full pages (`fraction` 1), leading alignment, no extra insets, every content inset used.
    public init(size: PageSize = .fraction(1), alignment: Alignment = .leading, sizeInsets: EdgeInsets = .zero,
                positionInsets: EdgeInsets = .zero, contentInsetEdges: Set<Edge> = Set(Edge.allCases)) {
        self.size = size
        self.alignment = alignment
        self.sizeInsets = sizeInsets
        self.positionInsets = positionInsets
        self.contentInsetEdges = contentInsetEdges
    }

    /// The content insets the paging uses: the chosen edges of `insets`, the others zero.
    public func usedContentInsets(_ insets: EdgeInsets) -> EdgeInsets {
        EdgeInsets(top: contentInsetEdges.contains(.top) ? insets.top : 0,
                   left: contentInsetEdges.contains(.left) ? insets.left : 0,
                   bottom: contentInsetEdges.contains(.bottom) ? insets.bottom : 0,
                   right: contentInsetEdges.contains(.right) ? insets.right : 0)
    }

    func validate(_ field: String) throws(StackError) {
        switch size {
        case .absolute(let length):
            try Check.length(length, field + ".size.absolute")
            guard length > 0 else { throw .invalid("must be greater than 0, got 0", field: field + ".size.absolute") }
        case .fraction(let fraction):
            guard fraction.isFinite, fraction > 0, fraction <= 1 else {
                throw .invalid("must be a fraction in (0, 1], got \(Check.text(fraction))", field: field + ".size.fraction")
            }
        case .rows:
            break
        }
        try Check.insets(sizeInsets, field + ".sizeInsets")
        try Check.insets(positionInsets, field + ".positionInsets")
    }
}
