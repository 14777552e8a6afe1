// Measures ScrollStackCore's per-operation cost at growing stack sizes, next to a plain
// array baseline doing the same work the straightforward way (linear id search, O(n)
// position sums), measured in the same run. Prints medians; run it in release:
//   swift run -c release core-benchmark [--max-rows N] [--samples K]
// The engine targets are in Targets.swift: core-benchmark --targets [--rows N].
import ScrollStackCore

#if canImport(Glibc)
import Glibc
#endif

/// The clock medians read: wall time, or with `--cpu-time` this thread's CPU time, which
/// leaves out the time other processes on a shared machine hold the core.
nonisolated(unsafe) var clock = CLOCK_MONOTONIC

func now() -> Double {
    var ts = timespec()
    clock_gettime(clock, &ts)
    return Double(ts.tv_sec) * 1e9 + Double(ts.tv_nsec)
}

/// Median nanoseconds of `body` over `samples` runs.
@MainActor func median(_ samples: Int, _ body: (Int) -> Void) -> Double {
    var times: [Double] = []
    times.reserveCapacity(samples)
    for i in 0..<samples {
        let start = now()
        body(i)
        times.append(now() - start)
    }
    times.sort()
    return times[times.count / 2]
}

/// Median nanoseconds of `body` over `samples` runs, what it returns freed after the clock
/// stops: the cost of making a value without that of destroying it.
@MainActor func medianFreeingAfter<T>(_ samples: Int, _ body: (Int) -> T) -> Double {
    var times: [Double] = []
    times.reserveCapacity(samples)
    for i in 0..<samples {
        let start = now()
        let value = body(i)
        withExtendedLifetime(value) { times.append(now() - start) }
    }
    times.sort()
    return times[times.count / 2]
}

var rng = SystemRandomNumberGenerator()
/// Results of queries go here so the optimizer cannot drop the work.
var sink = 0.0
@MainActor func random(_ n: Int) -> Int { Int.random(in: 0..<max(1, n), using: &rng) }

func makeRow(_ id: String, _ length: Double = 44) -> Row {
    Row(id: id, content: .controller(ControllerDescriptor(type: "Cell")), size: .fixed(length))
}

/// The baseline: rows in an array, positions summed from the start, ids searched linearly.
struct ArrayStack {
    var rows: [Row] = []
    var lengths: [Double] = []
    func index(of id: String) -> Int? { rows.firstIndex { $0.id == id } }
    func start(of index: Int) -> Double { lengths[..<index].reduce(0, +) }
    func visible(from offset: Double, height: Double) -> [String] {
        var y = 0.0
        var result: [String] = []
        for (row, length) in zip(rows, lengths) {
            if y + length > offset && y < offset + height { result.append(row.id) }
            y += length
        }
        return result
    }
}

var maxRows = 1_000_000
var samples = 201
var targetRows: Int?
var flatColumnRows: Int?
var buildRows: Int?
var editRows: Int?
var onlyOperation: String?
var arguments = CommandLine.arguments.dropFirst()
while let flag = arguments.popFirst() {
    switch flag {
    case "--max-rows": maxRows = Int(arguments.popFirst() ?? "") ?? maxRows
    case "--samples": samples = Int(arguments.popFirst() ?? "") ?? samples
    case "--targets": targetRows = targetRows ?? 1_000_000
    case "--rows": targetRows = Int(arguments.popFirst() ?? "") ?? 1_000_000
    case "--cpu-time": clock = CLOCK_THREAD_CPUTIME_ID
    case "--flat-column": flatColumnRows = Int(arguments.popFirst() ?? "") ?? 100_000
    case "--build": buildRows = Int(arguments.popFirst() ?? "") ?? 1_000_000
    case "--edits": editRows = Int(arguments.popFirst() ?? "") ?? 1_000_000
    case "--only": onlyOperation = arguments.popFirst()
    default:
        print("usage: core-benchmark [--cpu-time] [--max-rows N] [--samples K] | --targets [--rows N] [--samples K] | --flat-column N [--samples K]"
              + " | --build N [--samples K] [--only create|rows|fields] | --edits N [--samples K] [--only OP]")
        exit(2)
    }
}
if let buildRows {
    runBuild(buildRows, samples: samples, only: onlyOperation)
    exit(0)
}
if let editRows {
    if let onlyOperation { runOnly(onlyOperation, rows: editRows, samples: samples) } else { runEdits(rows: editRows, samples: samples) }
    exit(0)
}
if let flatColumnRows {
    runFlatColumn(flatColumnRows, samples: samples)
    exit(0)
}
if let targetRows {
    runTargets(rows: targetRows, samples: samples)
    exit(0)
}

let sizes = [1_000, 10_000, 100_000, 1_000_000].filter { $0 <= maxRows }
print("ScrollStackCore, median time per operation (µs) over \(samples) samples; viewport 375×667, rows 68 pt")
print("operation".rightPad(34) + sizes.map { "n=\($0)".leftPad(12) }.joined())

var results: [String: [Double]] = [:]
var order: [String] = []
@MainActor func record(_ name: String, _ ns: Double) {
    if results[name] == nil { order.append(name) }
    results[name, default: []].append(ns / 1000)
}

for n in sizes {
    var stack = try! ScrollStack(rows: (0..<n).map { makeRow("r\($0)") })
    var baseline = ArrayStack(rows: stack.rows, lengths: Array(repeating: 68, count: n))
    var counter = 0
    record("build (whole stack, per row)", median(3) { _ in _ = try! ScrollStack(rows: (0..<n).map { makeRow("b\($0)") }) } / Double(n) * 1000)
    record("index(ofID:)", median(samples) { _ in _ = stack.index(ofID: "r\(random(n))") })
    record("  baseline: linear search", median(samples) { _ in _ = baseline.index(of: "r\(random(n))") })
    record("insert 1 at a random index", median(samples) { _ in
        counter += 1
        try! stack.insert([makeRow("x\(counter)")], at: .index(random(stack.count)))
    })
    record("  baseline: array insert", median(samples) { _ in
        counter += 1
        let i = random(baseline.rows.count)
        baseline.rows.insert(makeRow("x\(counter)"), at: i)
        baseline.lengths.insert(68, at: i)
    })
    record("remove 1 at a random index", median(samples) { _ in try! stack.remove([.index(random(stack.count))]) })
    record("move a random row", median(samples) { _ in try! stack.move(.index(random(stack.count)), to: random(stack.count)) })
    record("hide a random row", median(samples) { _ in try! stack.setHidden([.index(random(stack.count))], true) })
    record("scroll to a random row (events)", median(samples) { _ in try! stack.scroll(to: .row(.index(random(stack.count)), .middle)) })
    record("one row's frame", median(samples) { _ in sink += try! stack.layout(of: .index(random(stack.count))).frame.minY })
    record("  baseline: sum lengths before it", median(samples) { _ in sink += baseline.start(of: random(baseline.rows.count)) })
    record("visible rows at the offset", median(samples) { _ in _ = stack.visibleRows })
    record("  baseline: scan every row", median(samples) { _ in _ = baseline.visible(from: Double(random(n)) * 68, height: 667) })
    record("full layout (per row)", median(3) { _ in _ = stack.layout() } / Double(stack.count) * 1000)
}

for name in order {
    print(name.rightPad(34) + results[name]!.map { fixed3($0).leftPad(12) }.joined())
}
print("(checksum \(sink > 0 ? "ok" : "zero"))")
print("(\"per row\" lines are ns per row; \"baseline\" lines run the same query on a plain array, in the same process and run)")

extension String {
    func leftPad(_ width: Int) -> String { String(repeating: " ", count: max(0, width - count)) + self }
    func rightPad(_ width: Int) -> String { self + String(repeating: " ", count: max(0, width - count)) }
}

/// `value` with three decimals, without Foundation.
func fixed3(_ value: Double) -> String {
    let thousandths = Int((value * 1000).rounded())
    let fraction = String(thousandths % 1000)
    return "\(thousandths / 1000)." + String(repeating: "0", count: 3 - fraction.count) + fraction
}
