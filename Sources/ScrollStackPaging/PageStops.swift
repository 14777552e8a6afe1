import ScrollStackCore

/// The offsets along the scroll axis a paging stack comes to rest at, in increasing order:
/// the clamp range's two ends and every page offset strictly between them.
///
/// Uniform pages are kept as arithmetic (first page offset and step), so a stack of any
/// length and page size costs O(1) to describe and O(log count) to search; row pages are a list.
public struct PageStops: Sendable, Hashable {
    enum Storage: Sendable, Hashable {
        /// Interior stops `first + k·step` for k in `kMin…kMin+interior−1`.
        case uniform(first: Double, step: Double, kMin: Int, interior: Int)
        case list([Double])
    }

    /// Two stops closer than this are one stop (answers are rounded to 10⁻⁶).
    public static let tolerance = 1e-6

    public let low: Double
    public let high: Double
    let storage: Storage
    /// How many stops; 0 when there is nothing to page (no shown content).
    public let count: Int

    /// No stops: an empty stack.
    public static func empty(at low: Double) -> PageStops {
        PageStops(low: low, high: low, storage: .list([]), count: 0)
    }

    private init(low: Double, high: Double, storage: Storage, count: Int) {
        self.low = low
        self.high = high
        self.storage = storage
        self.count = count
    }

    /// Stops for `pages` pages `step` apart whose page k has the offset `first + k·step`,
    /// inside `range`. Pages closer than the tolerance are merged as a list of them would be:
    /// from the first one past the range's low end, every m-th is kept, m·step the first
    /// multiple of the step beyond the tolerance. O(1).
    public init(uniformFirst first: Double, step: Double, pages: Int, range: ClosedRange<Double>) {
        low = range.lowerBound
        high = range.upperBound
        let hasHigh = high > low + Self.tolerance
        var kMin = 0
        var interior = 0
        var (first, step, pages) = (first, step, pages)
        if step > 0, step <= Self.tolerance, pages > 0 {
            let from = Swift.max(0, ((low + Self.tolerance - first) / step).rounded(.down) + 1)
            let m = (Self.tolerance / step).rounded(.down) + 1
            first += Swift.min(from, Double(pages)) * step
            pages = from >= Double(pages) ? 0 : Int(((Double(pages) - from) / m).rounded(.up))
            step *= m
        }
        if step > 0, pages > 0 {
            // Smallest k with first + k·step > low, largest with first + k·step < high (both
            // within the tolerance), as doubles clamped before converting.
            let lowK = ((low + Self.tolerance - first) / step).rounded(.down) + 1
            let highK = ((high - Self.tolerance - first) / step).rounded(.up) - 1
            let limit = Double(pages - 1)
            let from = Swift.max(0, Swift.min(lowK, limit + 1))
            let to = Swift.min(limit, Swift.max(highK, -1))
            kMin = Int(from)
            interior = Swift.max(0, Int(to) - kMin + 1)
        }
        storage = .uniform(first: first, step: step, kMin: kMin, interior: interior)
        count = 1 + interior + (hasHigh ? 1 : 0)
    }

    /// Stops for pages whose offsets are `offsets` (any order), clamped into `range`, with the
    /// range's ends added and stops within the tolerance merged. O(k log k).
    public init(offsets: [Double], range: ClosedRange<Double>) {
        low = range.lowerBound
        high = range.upperBound
        var stops = [low]
        for offset in offsets.map({ Swift.min(Swift.max($0, range.lowerBound), range.upperBound) }).sorted() + [high]
            where offset > stops[stops.count - 1] + Self.tolerance {
            stops.append(offset)
        }
        storage = .list(stops)
        count = stops.count
    }

    /// The stop at `index` (0 ≤ index < count). O(1).
    public subscript(index: Int) -> Double {
        switch storage {
        case .list(let stops):
            return stops[index]
        case .uniform(let first, let step, let kMin, let interior):
            if index == 0 { return low }
            if index <= interior { return first + Double(kMin + index - 1) * step }
            return high
        }
    }

    /// The last stop at or before `offset`, a stop less than `tolerance` after it counting as at
    /// it (0 when `offset` is before the first). O(log count).
    public func floorIndex(_ offset: Double, tolerance: Double = Self.tolerance) -> Int {
        var lo = 0
        var hi = count - 1
        guard count > 0, offset >= self[0] else { return 0 }
        while lo < hi {
            let mid = (lo + hi + 1) / 2
            if self[mid] <= offset + tolerance { lo = mid } else { hi = mid - 1 }
        }
        return lo
    }

    /// The stop nearest to `offset`; the earlier one on a tie. O(log count).
    public func nearestIndex(_ offset: Double) -> Int {
        guard count > 1 else { return 0 }
        let i = floorIndex(offset)
        guard i + 1 < count else { return i }
        return offset - self[i] > self[i + 1] - offset ? i + 1 : i
    }

    /// The fractional page at `offset`: k at stop k, linear between stops, and extrapolated
    /// with the first (last) gap before the first (after the last) stop. 0 with fewer than two
    /// stops. O(log count).
    ///
    /// The gap is the one that holds `offset` exactly (no tolerance): an offset just short of
    /// stop k is a little under k, so progress is finite, continuous and never decreases as
    /// the offset grows (with the tolerance it read past the last stop, and just short of any
    /// other stop it went back by up to 10⁻⁶ over the next gap).
    public func progress(at offset: Double) -> Double {
        guard count > 1 else { return 0 }
        if offset <= self[0] { return (offset - self[0]) / (self[1] - self[0]) }
        let last = count - 1
        if offset >= self[last] { return Double(last) + (offset - self[last]) / (self[last] - self[last - 1]) }
        let i = floorIndex(offset, tolerance: 0)
        return Double(i) + (offset - self[i]) / (self[i + 1] - self[i])
    }
}
