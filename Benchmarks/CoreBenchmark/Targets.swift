// The engine's targets, each printed next to a baseline from the same run:
//   core-benchmark [--cpu-time] --targets [--rows N] [--samples K]
//   core-benchmark [--cpu-time] --flat-column N [--samples K]   (for Benchmarks/engine_vs_flexbox.py)
import ScrollStackCore

#if canImport(Glibc)
import Glibc
#endif

/// glibc's `malloc_trim`, which the Glibc module does not export.
@_silgen_name("malloc_trim") func mallocTrim(_ pad: Int) -> Int32

/// The process's resident set in bytes, after handing freed heap memory back.
func residentBytes() -> Int {
    _ = mallocTrim(0)
    guard let file = fopen("/proc/self/statm", "r") else { return 0 }
    defer { fclose(file) }
    var size = 0, resident = 0
    withUnsafeMutablePointer(to: &size) { s in
        withUnsafeMutablePointer(to: &resident) { r in
            _ = withVaList([s, r]) { vfscanf(file, "%ld %ld", $0) }
        }
    }
    return resident * Int(sysconf(Int32(_SC_PAGESIZE)))
}

/// The flexbox comparison's column: `n` rows 44 pt high, 8 pt apart (the margins), every
/// 7th hidden (`display: none`), in a 375-wide viewport.
func flatColumn(_ n: Int) -> ScrollStack {
    var settings = StackSettings()
    settings.spacing = 8
    settings.rowInsets = .zero
    let rows = (0..<n).map { i in
        Row(id: "r\(i)", content: .view(ViewDescriptor(type: "Cell")), size: .fixed(44), insets: .zero, hidden: i % 7 == 6)
    }
    return try! ScrollStack(settings: settings, rows: rows)
}

/// Median ns per row of a full layout: materialized (`layout()`), streamed, and into a
/// `LayoutBuffer` reused from sample to sample (after one fill that allocates it, timed apart
/// as `first`).
@MainActor func fullLayout(_ stack: ScrollStack, samples: Int) -> (array: Double, streamed: Double, buffer: Double, first: Double) {
    let n = Double(stack.count)
    let array = median(samples) { _ in sink += stack.layout().rows.last!.frame.maxY } / n
    let streamed = median(samples) { _ in stack.forEachRowLayout { sink += $0.frame.minY } } / n
    var buffer = LayoutBuffer()
    let first = median(1) { _ in stack.layout(into: &buffer) } / n
    let reused = median(samples) { _ in
        stack.layout(into: &buffer)
        sink += buffer.frame(at: buffer.count - 1).minY
    } / n
    return (array, streamed, reused, first)
}

@MainActor func runFlatColumn(_ n: Int, samples: Int) {
    let stack = flatColumn(n)
    let (array, streamed, buffer, first) = fullLayout(stack, samples: samples)
    print("flat-column rows=\(n) layout_ns_per_row=\(fixed3(array)) streamed_ns_per_row=\(fixed3(streamed)) "
          + "buffer_ns_per_row=\(fixed3(buffer)) buffer_first_ns_per_row=\(fixed3(first)) content_height=\(stack.contentSize.height)")
}

/// Builds a stack of `n` rows from their fields, and inserts `n` rows as one batch, each
/// `samples` times and nothing else: the two building targets alone, for a profiler. `only`
/// (`create`, `rows` or `fields`) runs one of the three, for counting its instructions
/// (callgrind, or `perf stat` where the CPU's counters can be read); the others print as 0.
@MainActor func runBuild(_ n: Int, samples: Int, only: String? = nil) {
    let ids = (0..<n).map { "r\($0)" }
    let cell = RowContent.controller(ControllerDescriptor(type: "Cell"))
    let create = only == nil || only == "create" ? median(samples) { _ in
        var builder = try! ScrollStackBuilder(capacity: n)
        for id in ids { try! builder.append(id: id, content: cell, size: .fixed(44)) }
        sink += Double(try! builder.build().count)
    } / Double(n) : 0
    let rows = only == nil || only == "rows" ? ids.map { makeRow($0) } : []
    let batch = only == nil || only == "rows" ? median(samples) { _ in
        var stack = try! ScrollStack(rows: [makeRow("first")])
        try! stack.insert(rows, at: .bottom)
        sink += Double(stack.count)
    } / Double(n) : 0
    let batchFromFields = only == nil || only == "fields" ? median(samples) { _ in batchInsertFromFields(ids, cell) } / Double(n) : 0
    // The same two with the stack built freed after the clock stops (the batch is still freed
    // inside it, as a request frees it): building without destroying.
    let createKept = only == nil || only == "create" ? medianFreeingAfter(samples) { _ in
        var builder = try! ScrollStackBuilder(capacity: n)
        for id in ids { try! builder.append(id: id, content: cell, size: .fixed(44)) }
        return try! builder.build()
    } / Double(n) : 0
    let batchFromFieldsKept = only == nil || only == "fields" ? medianFreeingAfter(samples) { _ in
        batchInsertFromFields(ids, cell, keeping: true)!
    } / Double(n) : 0
    print("build rows=\(n) create_from_fields_ns_per_row=\(fixed3(create)) batch_insert_ns_per_row=\(fixed3(batch))"
          + " batch_insert_from_fields_ns_per_row=\(fixed3(batchFromFields))"
          + " stack_freed_after_clock: create_from_fields_ns_per_row=\(fixed3(createKept)) batch_insert_from_fields_ns_per_row=\(fixed3(batchFromFieldsKept))")
}

/// A batch of rows given by their fields (as the insert route decodes them) inserted at the
/// bottom of a one-row stack: the batch filled, then inserted. The stack is returned when
/// `keeping`, else freed here.
@MainActor @discardableResult func batchInsertFromFields(_ ids: [String], _ cell: RowContent, keeping: Bool = false) -> ScrollStack? {
    var stack = try! ScrollStack(rows: [makeRow("first")])
    var batch = RowBatch(capacity: ids.count)
    for id in ids { batch.append(id: id, content: cell, size: .fixed(44)) }
    try! stack.insert(batch, at: .bottom)
    sink += Double(stack.count)
    return keeping ? stack : nil
}

@MainActor func runTargets(rows n: Int, samples: Int) {
    print("ScrollStackCore engine targets at n=\(n) (medians of \(clock == CLOCK_MONOTONIC ? "wall" : "thread CPU") time; ns per row or µs per operation)")
    print("empty timed body".rightPad(44) + (fixed3(median(samples) { _ in } / 1000) + " µs").leftPad(16))
    func line(_ name: String, _ value: Double, _ unit: String, _ baselineName: String, _ baseline: Double) {
        print(name.rightPad(44) + (fixed3(value) + " " + unit).leftPad(16) + "   baseline " + baselineName + ": " + fixed3(baseline) + " " + unit
              + "  (ratio " + fixed3(baseline / value) + "×)")
    }
    let rows = (0..<n).map { makeRow("r\($0)") }
    let fresh = (0..<n).map { makeRow("n\($0)") }

    // Building: the stack from ready rows, against copying them into an array and an id map;
    // and from each row's fields, as the decoders build it (no `Row` values).
    let create = median(3) { _ in sink += Double(try! ScrollStack(rows: rows).count) } / Double(n)
    let rowIDs = rows.map(\.id)
    let cell = RowContent.controller(ControllerDescriptor(type: "Cell"))
    let createFromFields = median(3) { _ in
        var builder = try! ScrollStackBuilder(capacity: n)
        for id in rowIDs { try! builder.append(id: id, content: cell, size: .fixed(44)) }
        sink += Double(try! builder.build().count)
    } / Double(n)
    let batch = median(3) { _ in
        var stack = try! ScrollStack(rows: [makeRow("first")])
        try! stack.insert(rows, at: .bottom)
        sink += Double(stack.count)
    } / Double(n)
    let batchFromFields = median(3) { _ in batchInsertFromFields(rowIDs, cell) } / Double(n)
    let naive = median(3) { _ in
        var copy: [Row] = []
        var ids: [String: Int] = [:]
        ids.reserveCapacity(n)
        for (i, row) in rows.enumerated() {
            copy.append(row)
            ids[row.id] = i
        }
        sink += Double(copy.count + ids.count)
    } / Double(n)
    line("build: create from rows (per row)", create, "ns", "array + id dictionary", naive)
    line("build: create from fields (per row)", createFromFields, "ns", "array + id dictionary", naive)
    line("build: batch insert (per row)", batch, "ns", "array + id dictionary", naive)
    line("build: batch insert from fields (per row)", batchFromFields, "ns", "array + id dictionary", naive)

    // Memory: resident bytes the stack adds, against a plain array of the same rows.
    let ids = (0..<n).map { "m\($0)" }
    let base = residentBytes()
    var held = try! ScrollStack(rows: ids.map { makeRow($0) })
    let model = Double(residentBytes() - base) / Double(n)
    sink += Double(held.count)
    held = try! ScrollStack()
    let arrayBase = residentBytes()
    let plain = ids.map { makeRow($0) }
    let array = Double(residentBytes() - arrayBase) / Double(n)
    sink += Double(plain.count)
    line("memory: model RSS (bytes per row)", model, "B", "[Row] RSS", array)

    // Single-row edits at n rows, ids made before timing.
    var stack = try! ScrollStack(rows: rows)
    var baseline = ArrayStack(rows: rows, lengths: Array(repeating: 68, count: n))
    var next = 0
    func freshRow() -> Row { next += 1; return fresh[next % n] }
    let lookupIDs = (0..<samples).map { _ in "r\(random(n))" }
    line("index(ofID:)", median(samples) { sink += Double(stack.index(ofID: lookupIDs[$0]) ?? 0) } / 1000, "µs",
         "linear search", median(min(samples, 21)) { sink += Double(baseline.index(of: lookupIDs[$0]) ?? 0) } / 1000)
    let arrayInsert = median(min(samples, 21)) { _ in
        let i = random(baseline.rows.count)
        baseline.rows.insert(freshRow(), at: i)
        baseline.lengths.insert(68, at: i)
    } / 1000
    line("insert 1 at a random index", median(samples) { _ in try! stack.insert([freshRow()], at: .index(random(stack.count))) } / 1000,
         "µs", "array insert", arrayInsert)
    let arrayRemove = median(min(samples, 21)) { _ in
        let i = random(baseline.rows.count)
        baseline.rows.remove(at: i)
        baseline.lengths.remove(at: i)
    } / 1000
    line("remove 1 at a random index", median(samples) { _ in try! stack.remove([.index(random(stack.count))]) } / 1000,
         "µs", "array remove", arrayRemove)
    line("move a random row", median(samples) { _ in try! stack.move(.index(random(stack.count)), to: random(stack.count)) } / 1000,
         "µs", "array remove", arrayRemove)
    line("hide a random row", median(samples) { _ in try! stack.setHidden([.index(random(stack.count))], true) } / 1000,
         "µs", "array remove", arrayRemove)
    line("resize a random row", median(samples) { i in
        try! stack.update(.index(random(stack.count)), with: RowChange(size: .fixed(Double(40 + i % 20))))
    } / 1000, "µs", "array remove", arrayRemove)
    sink += Double(stack.count + baseline.rows.count)

    // Full layout of the flexbox comparison's column (Benchmarks/engine_vs_flexbox.py runs
    // Taffy and Yoga on it); the baseline is the same layout computed the old way, one
    // row at a time through `layout(of:)`, on a sample of rows.
    let column = flatColumn(n)
    let (layoutArray, layoutStreamed, layoutBuffer, layoutFirst) = fullLayout(column, samples: 5)
    let probe = 2000
    let oneByOne = median(5) { _ in
        for i in 0..<probe { sink += try! column.layout(of: .index(i * (n / probe))).frame.minY }
    } / Double(probe)
    line("full layout, layout() (per row)", layoutArray, "ns", "layout(of:) per row", oneByOne)
    line("full layout, forEachRowLayout (per row)", layoutStreamed, "ns", "layout(of:) per row", oneByOne)
    line("full layout, layout(into:) reused (per row)", layoutBuffer, "ns", "layout(of:) per row", oneByOne)
    line("full layout, layout(into:) first fill (per row)", layoutFirst, "ns", "layout(of:) per row", oneByOne)
}
