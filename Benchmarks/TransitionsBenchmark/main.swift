// Measures what a transition plan costs on top of a row operation at growing stack sizes:
// the capture before the operation plus the plan after it (the operation itself is not
// timed). Baseline, in the same run: the straightforward plan from two full layouts (before
// and after), O(n). Prints medians; run it in release:
//   swift run -c release transitions-benchmark [--max-rows N] [--samples K]
import ScrollStackCore
import ScrollStackTransitions

#if canImport(Glibc)
import Glibc
#endif

func now() -> Double {
    var ts = timespec()
    clock_gettime(CLOCK_MONOTONIC, &ts)
    return Double(ts.tv_sec) * 1e9 + Double(ts.tv_nsec)
}

var rng = SystemRandomNumberGenerator()
var sink = 0

func makeRow(_ id: String, _ length: Double = 44) -> Row {
    Row(id: id, content: .controller(ControllerDescriptor(type: "Cell")), size: .fixed(length))
}

/// Median nanoseconds of the planning around `operation`: capture, (untimed) operation, plan.
@MainActor func medianPlan(_ samples: Int, _ stack: inout ScrollStack, targets: (ScrollStack) -> [String],
                _ operation: (inout ScrollStack) -> OperationResult) -> Double {
    var times: [Double] = []
    for _ in 0..<samples {
        let t0 = now()
        let capture = TransitionCapture(stack, targets: targets(stack))
        let t1 = now()
        let result = operation(&stack)
        let t2 = now()
        let plan = TransitionPlanner.plan(from: capture, to: stack, result: result, timing: .rows, animated: true)
        let t3 = now()
        sink &+= plan.rows.count
        times.append((t1 - t0) + (t3 - t2))
    }
    times.sort()
    return times[times.count / 2]
}

/// Median nanoseconds of the baseline: full layouts before and after, compared row by row.
@MainActor func medianBaseline(_ samples: Int, _ stack: inout ScrollStack, _ operation: (inout ScrollStack) -> OperationResult) -> Double {
    var times: [Double] = []
    for _ in 0..<samples {
        let t0 = now()
        let before = stack.layout()
        let t1 = now()
        _ = operation(&stack)
        let t2 = now()
        let after = stack.layout()
        var old: [String: Rect] = [:]
        for row in before.rows { old[row.id] = row.frame }
        for row in after.rows where old[row.id] != row.frame { sink &+= 1 }
        let t3 = now()
        times.append((t1 - t0) + (t3 - t2))
    }
    times.sort()
    return times[times.count / 2]
}

var maxRows = 1_000_000
var samples = 101
var arguments = CommandLine.arguments.dropFirst()
while let flag = arguments.popFirst() {
    switch flag {
    case "--max-rows": maxRows = Int(arguments.popFirst() ?? "") ?? maxRows
    case "--samples": samples = Int(arguments.popFirst() ?? "") ?? samples
    default: print("usage: transitions-benchmark [--max-rows N] [--samples K]"); exit(2)
    }
}

let sizes = [1_000, 10_000, 100_000, 1_000_000].filter { $0 <= maxRows }
print("Transition plans: median µs per operation for capture + plan (operation excluded), \(samples) samples; viewport 375×667, rows 68 pt, offset in the middle")
print("operation".rightPad(36) + sizes.map { "n=\($0)".leftPad(12) }.joined())
var results: [String: [Double]] = [:]
var order: [String] = []
@MainActor func record(_ name: String, _ ns: Double) {
    if results[name] == nil { order.append(name) }
    results[name, default: []].append(ns / 1000)
}

for n in sizes {
    var settings = StackSettings()
    settings.offset = Point(x: 0, y: Double(n / 2) * 68)
    var stack = try! ScrollStack(settings: settings, rows: (0..<n).map { makeRow("r\($0)") })
    var counter = 0
    func nearby() -> Int { n / 2 + Int.random(in: -5...5, using: &rng) }
    record("insert 1 in view", medianPlan(samples, &stack, targets: { _ in [] }) { s in
        counter += 1
        return try! s.insert([makeRow("x\(counter)")], at: .index(nearby()))
    })
    record("remove 1 in view", medianPlan(samples, &stack, targets: { [$0.row(at: nearby()).id] }) { s in
        try! s.remove([.index(nearby())])
    })
    record("hide 1 above the viewport (all slide)", medianPlan(samples, &stack, targets: { [$0.row(at: 3).id] }) { s in
        try! s.setHidden([.index(3)], !s.row(at: 3).hidden)
    })
    record("move 1 from the top into view", medianPlan(samples, &stack, targets: { [$0.row(at: 0).id] }) { s in
        try! s.move(.index(0), to: nearby())
    })
    record("scroll by one row", medianPlan(samples, &stack, targets: { _ in [] }) { s in
        try! s.scroll(to: .offset(Point(x: 0, y: s.settings.offset.y + 68)))
    })
    let baselineSamples = max(3, min(samples, 3_000_000 / n))
    record("  baseline: diff of two full layouts", medianBaseline(baselineSamples, &stack) { s in
        counter += 1
        return try! s.insert([makeRow("y\(counter)")], at: .index(nearby()))
    })
}

for name in order {
    print(name.rightPad(36) + results[name]!.map { fixed3($0).leftPad(12) }.joined())
}
print("(checksum \(sink))")

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
