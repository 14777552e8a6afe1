@testable import ScrollStackText
import TestSeeds
import XCTest

/// Text that collapsing leaves as it is is taken whole without being rebuilt
/// (`TextEngine.isOneCollapsedParagraph`): on random text of spaces, tabs, line breaks and
/// letters, accented, CJK and emoji (seeded, printed), the paragraphs, and their offsets
/// back into the text, are those of the full collapsing.
final class TextParagraphTests: XCTestCase {
    func testTheWholeTextShortcutAgreesWithCollapsing() {
        let seed = TestSeed.seed("TextParagraphTests")
        var rng = SplitMix(seed: seed)
        let pieces = [" ", "  ", "\t", "\n", "\r\n", "\r", "a", "word", "é", "日本", "🎉", "x y"]
        var shortcuts = 0
        for i in 0..<5_000 {
            let text = (0..<rng.next(6)).map { _ in pieces[rng.next(pieces.count)] }.joined()
            if TextEngine.isOneCollapsedParagraph(text) { shortcuts += 1 }
            let full = TextEngine.collapse(text, mapped: true)
            XCTAssertEqual(TextEngine.paragraphs(text), full.map(\.text), "seed \(seed), case \(i): \(text.debugDescription)")
            let mapped = TextEngine.mappedParagraphs(text)
            XCTAssertEqual(mapped.map(\.text), full.map(\.text), "seed \(seed), case \(i)")
            XCTAssertEqual(mapped.map(\.utf16), full.map(\.utf16), "seed \(seed), case \(i): UTF-16 offsets")
            XCTAssertEqual(mapped.map(\.scalars), full.map(\.scalars), "seed \(seed), case \(i): scalar indices")
            XCTAssertEqual(mapped.map(\.start.utf16), full.map(\.start.utf16), "seed \(seed), case \(i)")
            XCTAssertEqual(mapped.map(\.start.scalar), full.map(\.start.scalar), "seed \(seed), case \(i)")
        }
        XCTAssertGreaterThan(shortcuts, 100, "seed \(seed): the shortcut was taken")
        XCTAssertEqual(TextEngine.paragraphs("Hello world"), ["Hello world"])
        XCTAssertFalse(TextEngine.isOneCollapsedParagraph(""))
        XCTAssertFalse(TextEngine.isOneCollapsedParagraph("a  b"))
        XCTAssertFalse(TextEngine.isOneCollapsedParagraph(" a"))
    }
}
