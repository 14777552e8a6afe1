/// Per-row values in pages of `pageSize` elements, for the columns of a stack (`RowStore`,
/// `IDIndex`). A copy of the column shares every page; a write through either copy first
/// copies the page it lands in, and the page table if that is shared too. So the first write
/// after a stack was copied (as the journal copies it for a snapshot, or a layout buffer
/// keeps its ids) costs O(pageSize + count / pageSize), not O(count): at a million rows a
/// few microseconds instead of tens of milliseconds.
///
/// Every page but the last is full. Reading or writing an element is O(1): two indexings,
/// plus a uniqueness check of the page table and the page on a write.
struct PagedColumn<Element>: RandomAccessCollection, MutableCollection {
    static var pageShift: Int { 12 }
    /// Elements per page: 4,096 (32 KiB of `Double`s, 64 KiB of `String`s).
    static var pageSize: Int { 1 << pageShift }
    private static var pageMask: Int { pageSize - 1 }

    /// One word, so that a stack's many columns stay cheap to pass and copy; the count is
    /// the pages' (every page but the last is full).
    private var pages: [ColumnPage<Element>] = []

    init() {}

    /// `count` copies of `value`.
    init(repeating value: Element, count: Int) {
        append(repeating: value, count: count)
    }

    var startIndex: Int { 0 }
    var endIndex: Int { count }

    /// Elements stored: the full pages' and the last page's count. O(1).
    var count: Int {
        @inline(__always) get {
            pages.withUnsafeBufferPointer { pages in
                guard pages.count > 0 else { return 0 }
                let last = Self.page(pages.count - 1, of: UnsafeRawPointer(pages.baseAddress.unsafelyUnwrapped))
                return (pages.count - 1) << Self.pageShift + last.load(fromByteOffset: Self.headerOffset, as: Int.self)
            }
        }
    }

    subscript(position: Int) -> Element {
        @inline(__always) get {
            checkIndex(position)
            return element(position).pointee
        }
        set {
            checkIndex(position)
            makeUnique(page: position >> Self.pageShift)
            element(position).pointee = newValue
        }
    }

    /// Where a page's count is, from the page's address: after the object's header (two
    /// words). `ColumnPage.make` checks it, and `elementOffset`, in debug builds.
    static var headerOffset: Int { 2 * MemoryLayout<Int>.size }

    /// Where a page's elements start, from the page's address: after the object's header
    /// and the page's count.
    static var elementOffset: Int {
        let alignment = MemoryLayout<Element>.alignment
        return (3 * MemoryLayout<Int>.size + alignment - 1) & ~(alignment - 1)
    }

    /// Traps unless `position` is in bounds: its page exists, and it is below the last
    /// page's count when it lands there (every other page is full), which reads that count
    /// only for the last page.
    @inline(__always)
    private func checkIndex(_ position: Int) {
        pages.withUnsafeBufferPointer { pages in
            let p = position >> Self.pageShift
            precondition(position >= 0 && p < pages.count, "PagedColumn: index out of range")
            if p == pages.count - 1 {
                let last = Self.page(p, of: UnsafeRawPointer(pages.baseAddress.unsafelyUnwrapped))
                precondition(position & Self.pageMask < last.load(fromByteOffset: Self.headerOffset, as: Int.self), "PagedColumn: index out of range")
            }
        }
    }

    /// The address of element `position` (in bounds): the column holds the page while the
    /// caller uses the address.
    @inline(__always)
    private func element(_ position: Int) -> UnsafeMutablePointer<Element> {
        pages.withUnsafeBufferPointer { pages in
            UnsafeMutablePointer(mutating: Self.element(position, of: UnsafeRawPointer(pages.baseAddress.unsafelyUnwrapped)))
        }
    }

    /// The address of page `p` in the page table at `table`, read as a plain address (no
    /// retain).
    @inline(__always)
    private static func page(_ p: Int, of table: UnsafeRawPointer) -> UnsafeRawPointer {
        table.load(fromByteOffset: p &* MemoryLayout<UnsafeRawPointer>.stride, as: UnsafeRawPointer.self)
    }

    /// The address of element `position` (in bounds) through the page table at `table`.
    @inline(__always)
    private static func element(_ position: Int, of table: UnsafeRawPointer) -> UnsafePointer<Element> {
        (page(position >> pageShift, of: table) + elementOffset).assumingMemoryBound(to: Element.self) + (position & pageMask)
    }

    /// Makes room for `total` elements' pages in the page table (pages themselves are
    /// allocated whole, one at a time).
    mutating func reserveCapacity(_ total: Int) {
        pages.reserveCapacity((total + Self.pageMask) >> Self.pageShift)
    }

    /// Appends `element`. O(1), amortized over the page table's growth.
    @inline(__always)
    mutating func append(_ element: Element) {
        let last = pages.count - 1
        if last >= 0 {
            makeUnique(page: last)
            let appended = pages.withUnsafeBufferPointer { pages in
                pages[last].withUnsafeMutablePointers { initialized, elements in
                    guard initialized.pointee < Self.pageSize else { return false }
                    (elements + initialized.pointee).initialize(to: element)
                    initialized.pointee += 1
                    return true
                }
            }
            if appended { return }
        }
        let page = ColumnPage<Element>.make()
        page.withUnsafeMutablePointers { initialized, elements in
            elements.initialize(to: element)
            initialized.pointee = 1
        }
        pages.append(page)
    }

    /// Appends `n` copies of `value`, a page at a time. O(n).
    mutating func append(repeating value: Element, count n: Int) {
        appendRuns(n) { run, _ in run.initialize(repeating: value) }
    }

    /// Appends every element of `elements`, a page at a time. O(k).
    mutating func append<C: Collection>(contentsOf elements: C) where C.Element == Element {
        let copied: Void? = elements.withContiguousStorageIfAvailable { buffer in
            appendRuns(buffer.count) { run, done in _ = run.initialize(fromContentsOf: buffer[done..<(done + run.count)]) }
        }
        if copied != nil { return }
        var i = elements.startIndex
        appendRuns(elements.count) { run, _ in
            for j in run.indices {
                run.initializeElement(at: j, to: elements[i])
                elements.formIndex(after: &i)
            }
        }
    }

    /// Appends `n` elements a run at a time (the rest of the last page, then new pages):
    /// `fill` initializes every element of each run, given how many came before it.
    private mutating func appendRuns(_ n: Int, _ fill: (_ run: UnsafeMutableBufferPointer<Element>, _ done: Int) -> Void) {
        var done = 0
        while done < n {
            let local = count & Self.pageMask
            if local == 0 { pages.append(ColumnPage.make()) }
            let k = Swift.min(n - done, Self.pageSize - local)
            uniquePage(pages.count - 1).withUnsafeMutablePointers { initialized, elements in
                fill(UnsafeMutableBufferPointer(start: elements + local, count: k), done)
                initialized.pointee += k
            }
            done += k
        }
    }

    /// Removes the last `k` elements. O(k).
    mutating func removeLast(_ k: Int) {
        precondition(k >= 0 && k <= count, "PagedColumn: removing more elements than there are")
        var remaining = k
        while remaining > 0 {
            let page = uniquePage(pages.count - 1)
            let inPage = page.header
            let drop = Swift.min(remaining, inPage)
            page.withUnsafeMutablePointers { initialized, elements in
                (elements + inPage - drop).deinitialize(count: drop)
                initialized.pointee -= drop
            }
            if drop == inPage { pages.removeLast() }
            remaining -= drop
        }
    }

    /// Calls `body` with the elements of `range` as contiguous runs, in order, each with the
    /// index of its first element: for writing many consecutive elements at once. The runs
    /// are valid only inside `body`. O(range.count / pageSize) calls.
    mutating func withMutableRuns(in range: Range<Int>, _ body: (_ start: Int, _ run: UnsafeMutableBufferPointer<Element>) -> Void) {
        precondition(range.lowerBound >= 0 && range.upperBound <= count, "PagedColumn: range out of bounds")
        var start = range.lowerBound
        while start < range.upperBound {
            let local = start & Self.pageMask
            let k = Swift.min(range.upperBound - start, Self.pageSize - local)
            let page = uniquePage(start >> Self.pageShift)
            page.withUnsafeMutablePointerToElements { body(start, UnsafeMutableBufferPointer(start: $0 + local, count: k)) }
            start += k
        }
    }

    /// Calls `body` with a reader of the elements by index, valid only inside `body`: for
    /// loops reading many elements, without a bounds check on each read in release builds.
    /// O(1) to set up.
    func withReader<R>(_ body: (Reader) throws -> R) rethrows -> R {
        try pages.withUnsafeBufferPointer { pages in
            // The page table's references read as plain addresses (no retain): `pages`,
            // and with it every page, lives until `body` returns.
            try body(Reader(pages: UnsafeRawPointer(pages.baseAddress), count: count))
        }
    }

    /// The elements of a `PagedColumn` by index, inside `withReader`.
    struct Reader {
        fileprivate let pages: UnsafeRawPointer?
        let count: Int

        subscript(position: Int) -> Element {
            assert(position >= 0 && position < count, "PagedColumn.Reader: index out of range")
            return PagedColumn.element(position, of: pages.unsafelyUnwrapped).pointee
        }
    }

    /// Page `p`, copied first if another column shares it (and the page table with it).
    private mutating func uniquePage(_ p: Int) -> ColumnPage<Element> {
        makeUnique(page: p)
        return pages[p]
    }

    /// Copies page `p` (and the page table) if another column shares it.
    @inline(__always)
    private mutating func makeUnique(page p: Int) {
        if !isKnownUniquelyReferenced(&pages[p]) { pages[p] = pages[p].copy() }
    }
}

extension PagedColumn: @unchecked Sendable where Element: Sendable {}

/// One page of a `PagedColumn`: room for `PagedColumn.pageSize` elements, the header
/// counting those initialized (the first ones).
final class ColumnPage<Element>: ManagedBuffer<Int, Element> {
    static func make() -> ColumnPage {
        let page = unsafeDowncast(create(minimumCapacity: PagedColumn<Element>.pageSize) { _ in 0 }, to: ColumnPage.self)
        let address = UnsafeRawPointer(Unmanaged.passUnretained(page).toOpaque())
        assert(page.withUnsafeMutablePointerToHeader { UnsafeRawPointer($0) } - address == PagedColumn<Element>.headerOffset,
               "PagedColumn.headerOffset is not where a page's count is")
        assert(page.withUnsafeMutablePointerToElements { UnsafeRawPointer($0) } - address == PagedColumn<Element>.elementOffset,
               "PagedColumn.elementOffset is not where a page's elements start")
        return page
    }

    /// A page holding copies of this one's elements. O(pageSize).
    func copy() -> ColumnPage {
        let copy = Self.make()
        withUnsafeMutablePointers { initialized, elements in
            copy.withUnsafeMutablePointers { copyInitialized, copyElements in
                copyElements.initialize(from: elements, count: initialized.pointee)
                copyInitialized.pointee = initialized.pointee
            }
        }
        return copy
    }

    deinit {
        _ = withUnsafeMutablePointers { initialized, elements in elements.deinitialize(count: initialized.pointee) }
    }
}
