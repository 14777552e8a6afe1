import Dispatch
import ScrollStackCore
import ScrollStackText
import Synchronization
import TestSeeds
import XCTest

/// An engine split into shards measures every text exactly as an engine of one shard does,
/// whether the texts were prepared ahead (`prepare`, one thread per shard) or measured from
/// many threads at once; preparing leaves nothing to shape when measuring, never evicts what
/// it shaped, and leaves a batch whose sample is shaped alone. Texts are drawn at random (seeded, printed): words in Latin, Arabic, CJK and emoji
/// (the fallback faces, where installed), several paragraphs, letter spacing, alignment and
/// line limits, in three families and sizes.
final class TextEngineShardTests: XCTestCase {
    static let catalog = FontCatalog(directories: FontCatalog.defaultDirectories)

    static let words = ["settings", "privacy", "Wi-Fi", "co-operate", "AV", "office", "fi", "“quoted”", "(aside)", "مرحبا", "بالعالم",
                        "日本語の", "テキスト", "🎉", "❤️", "1,234.5", "e\u{301}", "straße"]

    static func texts(_ count: Int, seed: UInt64) -> [TextContent] {
        var rng = SplitMix(seed: seed)
        let families = ["Inter", "DejaVu Sans", "Noto Sans CJK JP"]
        let alignments: [TextContent.Alignment] = [.start, .center, .end]
        return (0..<count).map { _ in
            var text = ""
            for w in 0..<(1 + rng.next(12)) {
                if w > 0 { text += ["  ", " ", " ", " ", "\n", "\t"][rng.next(6)] }
                text += words[rng.next(words.count)]
            }
            if rng.next(8) == 0 { text = " " + text + " " }
            return TextContent(text, font: FontRequest(family: families[rng.next(families.count)], size: [11, 13, 16, 22.5][rng.next(4)]),
                               letterSpacing: rng.next(6) == 0 ? 0.5 : 0, maxLines: rng.next(5) == 0 ? 1 + rng.next(2) : nil,
                               alignment: alignments[rng.next(3)], ellipsis: rng.next(2) == 0)
        }
    }

    /// Every answer of `engine` for `text` at `width`, as one comparable value.
    static func answers(_ engine: TextEngine, _ text: TextContent, width: Double?) -> String {
        "\(engine.lines(of: text, width: width)) \(engine.drawableLines(of: text, width: width)) \(engine.glyphLines(of: text, width: width))"
    }

    func testPreparedShardsMeasureAsOneShard() {
        let seed = TestSeed.seed("TextEngineShardTests.prepared")
        let texts = Self.texts(300, seed: seed)
        let one = TextEngine(catalog: Self.catalog)
        let sharded = TextEngine(catalog: Self.catalog, shards: 3)
        XCTAssertEqual(sharded.parallelism, 3)
        sharded.prepare(texts)
        let prepared = sharded.statistics
        XCTAssertGreaterThan(prepared.paragraphsShaped, 0, "preparing shapes ahead")
        for (i, text) in texts.enumerated() {
            for width in [nil, 90, 240] as [Double?] {
                XCTAssertEqual(Self.answers(sharded, text, width: width), Self.answers(one, text, width: width), "seed \(seed), text \(i) at \(String(describing: width))")
            }
        }
        XCTAssertEqual(sharded.statistics.paragraphsShaped, prepared.paragraphsShaped, "seed \(seed): measuring after preparing shapes nothing more")
    }

    func testShardsMeasuredFromManyThreadsAnswerAsOneShard() {
        let seed = TestSeed.seed("TextEngineShardTests.threads")
        let texts = Self.texts(200, seed: seed)
        let one = TextEngine(catalog: Self.catalog)
        let expected = texts.map { Self.answers(one, $0, width: 150) }
        // A small font cache, so that fonts are set up and dropped while other threads measure.
        let sharded = TextEngine(catalog: Self.catalog, fontCacheBytes: 1 << 20, shards: 2)
        let results = Results(count: texts.count)
        DispatchQueue.concurrentPerform(iterations: 4) { thread in
            for i in stride(from: thread, to: texts.count * 2, by: 4) {
                let k = (i * 7) % texts.count
                results.set(k, Self.answers(sharded, texts[k], width: 150))
            }
        }
        for k in texts.indices {
            XCTAssertEqual(results.get(k), expected[k], "seed \(seed), text \(k)")
        }
    }

    func testAFullCacheStillPrepares() {
        let seed = TestSeed.seed("TextEngineShardTests.steady")
        let engine = TextEngine(catalog: Self.catalog, shapeCacheBytes: 200_000, shards: 2)
        // Fill both shards, as a long-running server's are.
        for i in 0..<2_000 { _ = engine.lines(of: TextContent("filler paragraph \(i) of some words", font: FontRequest(family: "Inter", size: 12)), width: 300) }
        let before = engine.statistics
        XCTAssertGreaterThan(before.shapeCacheBytes, 200_000 * 3 / 4, "the cache is full")
        let texts = Self.texts(40, seed: seed).map { TextContent($0.text + " new", font: FontRequest(family: "Inter", size: 13)) }
        engine.prepare(texts)
        XCTAssertGreaterThan(engine.statistics.paragraphsShaped, before.paragraphsShaped + 20, "seed \(seed): new texts shaped ahead")
    }

    func testNothingShapedAheadIsEvictedBeforeItIsMeasured() {
        // Batches of 100 paragraphs of about 2 KB in shards of 128 KB: each batch is most of
        // a shard, and the older batches must leave first. Each text is shaped once.
        let engine = TextEngine(catalog: Self.catalog, shapeCacheBytes: 256 << 10, shards: 2)
        var shaped = 0
        for batch in 0..<6 {
            let texts = (0..<100).map { i in
                TextContent("row\(i) " + (0..<60).map { "b\(batch)w\(($0 * 13 + i) % 89)" }.joined(separator: " "), font: FontRequest(family: "Inter", size: 12))
            }
            engine.prepare(texts)
            for text in texts { _ = engine.lines(of: text, width: 300) }
            let statistics = engine.statistics
            XCTAssertEqual(statistics.paragraphsShaped - shaped, 100, "batch \(batch): each paragraph shaped once")
            XCTAssertLessThanOrEqual(statistics.shapeCacheBytes, 256 << 10)
            shaped = statistics.paragraphsShaped
        }
    }

    func testPreparingStopsAtAFullCacheInsteadOfEvicting() {
        let seed = TestSeed.seed("TextEngineShardTests.full")
        var rng = SplitMix(seed: seed)
        // 400 distinct paragraphs of about 300 bytes each; the two shards hold some 20 KB each.
        let texts = (0..<400).map { i in
            TextContent((0..<40).map { _ in Self.words[rng.next(8)] }.joined(separator: " ") + " \(i)", font: FontRequest(family: "Inter", size: 14))
        }
        let engine = TextEngine(catalog: Self.catalog, shapeCacheBytes: 40_000, shards: 2)
        engine.prepare(texts)
        let held = engine.statistics
        XCTAssertGreaterThan(held.paragraphsShaped, 0)
        XCTAssertLessThan(held.paragraphsShaped, texts.count, "seed \(seed): preparing stopped when it had filled half of each shard")
        XCTAssertEqual(held.cachedParagraphs, held.paragraphsShaped, "seed \(seed): nothing prepared was evicted")
    }

    func testFewTextsOrOneShardAreNotPrepared() {
        let texts = Self.texts(300, seed: 7)
        let one = TextEngine(catalog: Self.catalog)
        one.prepare(texts)
        XCTAssertEqual(one.statistics.paragraphsShaped, 0, "one shard: nothing to do ahead")
        let sharded = TextEngine(catalog: Self.catalog, shards: 2)
        sharded.prepare(Array(texts.prefix(3)))
        XCTAssertEqual(sharded.statistics.paragraphsShaped, 0, "three texts are measured where they are")
    }

    func testABatchWhoseSampleIsShapedIsNotPreparedAgain() {
        let texts = (0..<64).map { TextContent("row number \($0) of the batch", font: FontRequest(family: "Inter", size: 15)) }
        let engine = TextEngine(catalog: Self.catalog, shards: 2)
        for text in texts { _ = engine.lines(of: text, width: 200) }
        let shaped = engine.statistics.paragraphsShaped
        // Eight texts are looked up, one every eighth: index 1 is not one of them.
        var batch = texts
        batch[1] = TextContent("a row not seen before", font: FontRequest(family: "Inter", size: 15))
        engine.prepare(batch)
        XCTAssertEqual(engine.statistics.paragraphsShaped, shaped, "the sample was shaped: nothing done ahead")
        batch[8] = TextContent("another row not seen before", font: FontRequest(family: "Inter", size: 15))
        engine.prepare(batch)
        XCTAssertEqual(engine.statistics.paragraphsShaped, shaped + 2, "a sampled text was new: the batch's new texts are shaped ahead")
    }

    func testTheCacheBytesAreSharedOutAmongTheShards() {
        let texts = Self.texts(300, seed: 11)
        let engine = TextEngine(catalog: Self.catalog, shapeCacheBytes: 60_000, shards: 3)
        for text in texts { _ = engine.lines(of: text, width: 200) }
        XCTAssertLessThanOrEqual(engine.statistics.shapeCacheBytes, 60_000)
        XCTAssertEqual(engine.shapeCacheBytes, 60_000)
    }

    /// Each text's answers, set from the measuring threads.
    final class Results: Sendable {
        private let values: Mutex<[String?]>

        init(count: Int) { values = Mutex(Array(repeating: nil, count: count)) }

        func set(_ i: Int, _ value: String) {
            let known = values.withLock { values in
                defer { values[i] = value }
                return values[i]
            }
            if let known { XCTAssertEqual(known, value, "text \(i) measured twice alike") }
        }

        func get(_ i: Int) -> String? { values.withLock { $0[i] } }
    }
}

/// SplitMix64, for seeded draws.
struct SplitMix {
    var state: UInt64

    init(seed: UInt64) { state = seed }

    mutating func next(_ bound: Int) -> Int {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return Int((z ^ (z >> 31)) % UInt64(bound))
    }
}
