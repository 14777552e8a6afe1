import ScrollStackCore

/// Where a paging stack stands: its stops and, at one offset, the current page and progress.
public struct PagingState: Sendable, Hashable {
    public var stops: PageStops
    /// The page length along the scroll axis; for row pages, the current page's row length.
    public var pageSize: Double
    /// The stop nearest to the offset, clamped to 0…count−1 (0 without stops).
    public var currentPage: Int
    /// The fractional page at the offset (see `PageStops.progress(at:)`).
    public var progress: Double

    /// The number of stops.
    public var pageCount: Int { stops.count }
}
