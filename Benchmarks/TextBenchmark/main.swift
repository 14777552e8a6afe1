// Measuring a big stack of text rows: 100,000 fit rows, each one paragraph of Inter 16
// (about 10–25 words, all different), measured when the stack is built with an empty shape
// cache (cold), then re-measured at another viewport width with the cache warm (every
// paragraph already shaped, only line breaking runs). Baseline in the same run: the same
// stack with a fixed-size box as each row's content (measuring costs next to nothing), built
// and re-measured the same way. Then the same cold build and warm re-measure with an engine
// of --shards shards (default: one per core, as the server's), against one shard in the same
// sample. Prints
// medians; run it in release:
//   swift run -c release text-benchmark [--rows N] [--samples K] [--seed S] [--shards N]
import ScrollStackCore
import ScrollStackText

#if canImport(Glibc)
import Glibc
#endif

func now() -> Double {
    var ts = timespec()
    clock_gettime(CLOCK_MONOTONIC, &ts)
    return Double(ts.tv_sec) + Double(ts.tv_nsec) / 1e9
}

func argument(_ name: String, _ fallback: Int) -> Int {
    let args = CommandLine.arguments
    guard let i = args.firstIndex(of: name), i + 1 < args.count, let value = Int(args[i + 1]) else { return fallback }
    return value
}

let rows = argument("--rows", 100_000)
let samples = argument("--samples", 3)
let seed = UInt64(argument("--seed", 9))
let shards = argument("--shards", TextEngine.defaultShards)
print("text-benchmark: \(rows) rows, \(samples) samples, seed \(seed), \(shards) shards")

/// SplitMix64: the same paragraphs for the same seed.
var state = seed
@MainActor func next() -> UInt64 {
    state &+= 0x9E37_79B9_7F4A_7C15
    var z = state
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    return z ^ (z >> 31)
}

let words = ("settings notifications privacy wireless display brightness sound battery storage accounts "
    + "passwords security location keyboard language region accessibility update backup office flight "
    + "the a of to and when with your every device allow show hide use").split(separator: " ").map(String.init)
let paragraphs: [String] = (0..<rows).map { i in
    let count = 10 + Int(next() % 16)
    return (0..<count).map { _ in words[Int(next() % UInt64(words.count))] }.joined(separator: " ") + " \(i)."
}
let font = FontRequest(family: "Inter", size: 16)
func textRows() -> [Row] {
    paragraphs.enumerated().map { i, p in
        Row(id: "r\(i)", content: .controller(ControllerDescriptor(type: "Label")), size: .fit, contentDescription: .text(TextContent(p, font: font)))
    }
}
func boxRows() -> [Row] {
    (0..<rows).map { i in
        Row(id: "r\(i)", content: .controller(ControllerDescriptor(type: "Label")), size: .fit, contentDescription: .box(height: 44))
    }
}
let catalog = FontCatalog(directories: FontCatalog.defaultDirectories)
var sink = 0.0

func median(_ values: [Double]) -> Double { values.sorted()[values.count / 2] }

/// Seconds to build a stack of `rows` measured by `engine`, then to re-measure it at another width.
@MainActor func buildAndRemeasure(_ rows: [Row], _ engine: TextEngine) throws -> (build: Double, remeasure: Double) {
    var t = now()
    var stack = try ScrollStack(rows: rows, measurer: FlexMeasurer(text: engine))
    let build = now() - t
    t = now()
    try stack.update(SettingsChange(viewport: Size(width: 320, height: 667)))
    sink += stack.contentSize.height
    return (build, now() - t)
}

var cold: [Double] = [], warm: [Double] = [], baseBuild: [Double] = [], baseRelayout: [Double] = [], sharded: [Double] = [],
    shardedWarm: [Double] = []
for _ in 0..<samples {
    // Room for every paragraph in either engine, so that re-measuring reshapes nothing.
    let bytes = (rows + 1) * 4096
    let many = try buildAndRemeasure(textRows(), TextEngine(catalog: catalog, shapeCacheBytes: bytes, shards: shards))
    sharded.append(many.build)
    shardedWarm.append(many.remeasure)
    let engine = TextEngine(catalog: catalog, shapeCacheBytes: bytes)
    let one = try buildAndRemeasure(textRows(), engine)
    cold.append(one.build)
    warm.append(one.remeasure)
    let boxes = try buildAndRemeasure(boxRows(), engine)
    baseBuild.append(boxes.build)
    baseRelayout.append(boxes.remeasure)
}

/// `value` with one decimal.
func fixed(_ value: Double) -> String {
    let tenths = Int((value * 10).rounded())
    return "\(tenths / 10).\(abs(tenths % 10))"
}
func ms(_ s: Double) -> String { fixed(s * 1000) + " ms" }
func line(_ name: String, _ values: [Double], _ baseline: [Double]) {
    let padded = name + String(repeating: " ", count: max(0, 48 - name.count))
    print("\(padded) \(ms(median(values)))   baseline \(ms(median(baseline)))   ×\(fixed(median(values) / median(baseline)))")
}
line("build, text rows, shape cache cold", cold, baseBuild)
line("re-measure at another width, shape cache warm", warm, baseRelayout)
line("build, text rows, cold, \(shards) shards against 1", sharded, cold)
line("re-measure, warm, \(shards) shards against 1", shardedWarm, warm)
print("per row: cold \(fixed(median(cold) / Double(rows) * 1e6)) µs, warm \(fixed(median(warm) / Double(rows) * 1e6)) µs")
if sink == 0 { print("") }
