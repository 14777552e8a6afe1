@testable import ScrollStackText
import TestSeeds
import XCTest

/// Text that collapsing leaves as it is is taken whole without being rebuilt
/// (`TextEngine.isOneCollapsedParagraph`): on random text of spaces, tabs, line breaks and
/// letters (seeded, printed), the paragraphs are those of the full collapsing.
final class TextParagraphTests: XCTestCase {
    func testTheWholeTextShortcutAgreesWithCollapsing() {
        let seed = TestSeed.seed("TextParagraphTests")
        var rng = SplitMix(seed: seed)
        let pieces = [" ", "  ", "\t", "\n", "\r\n", "\r", "a", "word", "é", "日本", "🎉", "x y"]
        var shortcuts = 0
        for i in 0..<5_000 {
            let text = (0..<rng.next(6)).map { _ in pieces[rng.next(pieces.count)] }.joined()
            if TextEngine.isOneCollapsedParagraph(text) { shortcuts += 1 }
            XCTAssertEqual(TextEngine.paragraphs(text), TextEngine.mappedParagraphs(text).map(\.text), "seed \(seed), case \(i): \(text.debugDescription)")
        }
        XCTAssertGreaterThan(shortcuts, 100, "seed \(seed): the shortcut was taken")
        XCTAssertEqual(TextEngine.paragraphs("Hello world"), ["Hello world"])
        XCTAssertFalse(TextEngine.isOneCollapsedParagraph(""))
        XCTAssertFalse(TextEngine.isOneCollapsedParagraph("a  b"))
        XCTAssertFalse(TextEngine.isOneCollapsedParagraph(" a"))
    }
}
