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

var cold: [Double] = [], warm: [Double] = [], baseBuild: [Double] = [], baseRelayout: [Double] = [], sharded: [Double] = [],
    shardedWarm: [Double] = []
for _ in 0..<samples {
    do {
        let texts = textRows()
        let engine = TextEngine(catalog: catalog, shapeCacheBytes: (rows + 1) * 4096, shards: shards)
        var t = now()
        var stack = try ScrollStack(rows: texts, measurer: FlexMeasurer(text: engine))
        sharded.append(now() - t)
        t = now()
        try stack.update(SettingsChange(viewport: Size(width: 320, height: 667)))
        shardedWarm.append(now() - t)
        sink += stack.contentSize.height
    }
    let texts = textRows()
    let engine = TextEngine(catalog: catalog, shapeCacheBytes: (rows + 1) * 1024)
    var t = now()
    var stack = try ScrollStack(rows: texts, measurer: FlexMeasurer(text: engine))
    cold.append(now() - t)
    t = now()
    try stack.update(SettingsChange(viewport: Size(width: 320, height: 667)))
    warm.append(now() - t)
    sink += stack.contentSize.height

    let boxes = boxRows()
    t = now()
    var base = try ScrollStack(rows: boxes, measurer: FlexMeasurer(text: engine))
    baseBuild.append(now() - t)
    t = now()
    try base.update(SettingsChange(viewport: Size(width: 320, height: 667)))
    baseRelayout.append(now() - t)
    sink += base.contentSize.height
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
