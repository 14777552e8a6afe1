// Single-row edits and id lookups at n rows, measured two ways in one run:
//   core-benchmark [--cpu-time] --edits N [--samples K]
//   core-benchmark --edits N --only OP [--samples K]   (OP: lookup insert remove move hide resize;
//                                                       runs OP K times untimed, for perf or callgrind)
import ScrollStackCore

#if canImport(Glibc)
import Glibc
#endif

/// One single-row operation of the targets, given the stack and a random number drawn for it.
typealias Edit = (inout ScrollStack, Int) -> Void

/// The operations of the single-row targets, in the order `--targets` prints them, with how
/// many random draws `--targets` makes inside each one's timed body. Each operation picks
/// its row (or its id) from the number it is given.
@MainActor func singleRowEdits(rows n: Int) -> [(name: String, key: String, draws: Int, edit: Edit)] {
    var next = 0
    let fresh = (0..<n).map { makeRow("n\($0)") }
    func freshRow() -> Row { next += 1; return fresh[next % n] }
    // Ids made before timing, as `--targets` does.
    let lookupIDs = (0..<4096).map { _ in "r\(random(n))" }
    return [
        ("index(ofID:)", "lookup", 0, { stack, r in sink += Double(stack.index(ofID: lookupIDs[r & 4095]) ?? 0) }),
        ("insert 1 at a random index", "insert", 1, { stack, r in try! stack.insert([freshRow()], at: .index(r % stack.count)) }),
        ("remove 1 at a random index", "remove", 1, { stack, r in try! stack.remove([.index(r % stack.count)]) }),
        ("move a random row", "move", 2, { stack, r in
            try! stack.move(.index(r % stack.count), to: (r >> 24) % stack.count)
        }),
        ("hide a random row", "hide", 1, { stack, r in try! stack.setHidden([.index(r % stack.count)], true) }),
        ("resize a random row", "resize", 1, { stack, r in
            try! stack.update(.index(r % stack.count), with: RowChange(size: .fixed(Double(40 + r % 20))))
        }),
    ]
}

/// Prints each single-row target at `n` rows measured three ways, in the same process:
/// - "as --targets": one pair of clock reads per operation, the random index drawn inside
///   the timed body (`SystemRandomNumberGenerator` is a `getrandom` system call);
/// - "net": the random numbers drawn before timing, and the clock's own median cost (an
///   empty timed body) subtracted from the operation's median;
/// - "batch of 8": the random numbers drawn before timing, one pair of clock reads around 8
///   operations, the median batch divided by 8 (the clock adds an eighth of its cost, and a
///   rare slow operation such as a chunk split counts in its batch's mean).
/// The cost of one draw and of the empty body are printed too, so that a figure of one
/// method can be turned into the other's.
@MainActor func runEdits(rows n: Int, samples: Int) {
    print("ScrollStackCore single-row targets at n=\(n) (medians of \(clock == CLOCK_MONOTONIC ? "wall" : "thread CPU") time over \(samples) samples, µs per operation)")
    let rows = (0..<n).map { makeRow("r\($0)") }
    var stack = try! ScrollStack(rows: rows)
    let emptyBody = median(samples) { _ in } / 1000
    let draw = median(samples) { _ in sink += Double(random(n)) } / 1000 - emptyBody
    print("empty timed body (the clock)".rightPad(36) + (fixed3(emptyBody) + " µs").leftPad(12))
    print("one random draw (getrandom)".rightPad(36) + (fixed3(draw) + " µs").leftPad(12) + "   (net of the clock)")
    print("operation".rightPad(36) + "as --targets".leftPad(14) + "net".leftPad(12) + "batch of 8".leftPad(14))
    for (name, _, draws, edit) in singleRowEdits(rows: n) {
        let asBefore = median(samples) { i in
            switch draws {
            case 0: edit(&stack, i)
            case 1: edit(&stack, random(1 << 40))
            default: edit(&stack, random(1 << 24) | random(1 << 24) << 24)
            }
        } / 1000
        let drawn = (0..<samples).map { _ in random(1 << 48) }
        let net = median(samples) { edit(&stack, drawn[$0]) } / 1000 - emptyBody
        let batches = (0..<(8 * samples)).map { _ in random(1 << 48) }
        let batched = median(samples) { b in for j in 0..<8 { edit(&stack, batches[8 * b + j]) } } / 8000
        print(name.rightPad(36) + (fixed3(asBefore) + " µs").leftPad(14) + (fixed3(net) + " µs").leftPad(12) + (fixed3(batched) + " µs").leftPad(14))
    }
    // The first write after the stack was copied (as a snapshot's claim copies it): the
    // write pays for unsharing whatever storage it touches. The copy is made before the
    // clock starts and released after it stops.
    var afterCopyTimes: [Double] = []
    for _ in 0..<samples {
        let index = random(stack.count)
        let copy = stack
        let start = now()
        try! stack.insert([makeRow("c\(afterCopyTimes.count)")], at: .index(index))
        afterCopyTimes.append(now() - start)
        sink += Double(copy.count)
    }
    let afterCopy = afterCopyTimes.sorted()[samples / 2] / 1000
    print("insert 1 right after a copy".rightPad(36) + (fixed3(afterCopy) + " µs").leftPad(14))
    print("(rows at the end: \(stack.count); checksum \(sink > 0 ? "ok" : "zero"))")
}

/// Runs one operation `samples` times at `n` rows, untimed: for `perf` and `callgrind`
/// (whose collection can be limited to `runOnly`).
@MainActor func runOnly(_ key: String, rows n: Int, samples: Int) {
    guard let (_, _, _, edit) = singleRowEdits(rows: n).first(where: { $0.key == key }) else {
        print("unknown operation \(key): lookup insert remove move hide resize")
        exit(2)
    }
    var stack = try! ScrollStack(rows: (0..<n).map { makeRow("r\($0)") })
    let drawn = (0..<samples).map { _ in random(1 << 48) }
    profiledLoop(&stack, drawn, edit)
    print("\(key) × \(samples) at n=\(n): done (checksum \(sink > 0 ? "ok" : "zero"))")
}

/// The loop `runOnly` profiles, kept out of line so that a profiler can name it.
@inline(never) @MainActor func profiledLoop(_ stack: inout ScrollStack, _ drawn: [Int], _ edit: Edit) {
    for r in drawn { edit(&stack, r) }
}
