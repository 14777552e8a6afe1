import Foundation
import ScrollStackCore
import ScrollStackText
import XCTest

/// Fonts held in memory (uploaded ones): read from their bytes, refused with the reason when
/// FreeType cannot use them, and measured exactly as the same file from a folder, added to and
/// taken out of an engine's catalog while it runs.
final class MemoryFontTests: XCTestCase {
    static let file = "/usr/share/fonts/truetype/dejavu/DejaVuSansMono.ttf"

    func testFacesOfBytesAndTheirProblems() throws {
        let bytes = FontBytes(id: "mono", bytes: Array(try Data(contentsOf: URL(fileURLWithPath: Self.file))))
        let faces = try FontCatalog.faces(of: bytes)
        XCTAssertEqual(faces.map(\.family), ["DejaVu Sans Mono"])
        XCTAssertEqual(faces.first?.fontID, "mono")
        XCTAssertEqual(faces.first?.path, "", "no file")
        XCTAssertThrowsError(try FontCatalog.faces(of: FontBytes(id: "junk", bytes: Array("junk".utf8)))) { error in
            guard case .unreadable(nil, let code)? = error as? FontProblem else { return XCTFail("\(error)") }
            XCTAssertNotEqual(code, 0)
        }
    }

    func testAMemoryFaceMeasuresAsItsFileAndComesAndGoes() throws {
        let folder = TextEngine(catalog: FontCatalog(directories: ["/usr/share/fonts/truetype/dejavu"]))
        let text = TextContent("Monospaced width", font: FontRequest(family: "DejaVu Sans Mono", size: 15))
        let expected = folder.lines(of: text, width: nil)
        let engine = TextEngine(catalog: FontCatalog(directories: FontCatalog.defaultDirectories.filter { !$0.hasSuffix("dejavu") }))
        XCTAssertNotNil(engine.unavailable(text.font))
        let bytes = FontBytes(id: "mono", bytes: Array(try Data(contentsOf: URL(fileURLWithPath: Self.file))))
        let base = engine.catalog
        engine.setCatalog(base.adding(try FontCatalog.faces(of: bytes)))
        XCTAssertNil(engine.unavailable(text.font))
        XCTAssertEqual(engine.lines(of: text, width: nil).widths, expected.widths)
        XCTAssertEqual(engine.glyphLines(of: text, width: nil).first?.runs.first?.face.fontID, "mono")
        engine.setCatalog(base)
        XCTAssertNotNil(engine.unavailable(text.font))
        XCTAssertEqual(engine.lines(of: text, width: nil).widths, [], "gone: nothing to measure with")
    }
}
