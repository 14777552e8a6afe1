import Foundation
import ScrollStackCore
import ScrollStackText
import XCTest

/// Font discovery and CSS font matching over Debian's Inter and DejaVu.
final class FontCatalogTests: XCTestCase {
    let catalog = FontCatalog(directories: FontCatalog.defaultDirectories)

    func face(_ family: String, _ weight: Int, _ style: FontRequest.Style = .normal) -> FontFace? {
        catalog.match(FontRequest(family: family, size: 12, weight: weight, style: style))
    }

    func testDefaultFamiliesAndAliases() throws {
        let names = catalog.allFamilies.map(\.family)
        XCTAssertTrue(names.contains("Inter"), "\(names)")
        XCTAssertTrue(names.contains("DejaVu Sans"), "\(names)")
        XCTAssertEqual(face("dejavu", 400)?.path, "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf", "an alias, case-insensitive")
        XCTAssertNil(face("Helvetica", 400))
    }

    func testWeightAndStyleMatchAsCSSDoes() throws {
        XCTAssertEqual(face("Inter", 400)?.path.hasSuffix("Inter-Regular.otf"), true)
        XCTAssertEqual(face("Inter", 700, .italic)?.path.hasSuffix("Inter-BoldItalic.otf"), true)
        XCTAssertEqual(face("Inter", 650)?.weight, 700, "above 500: heavier first")
        XCTAssertEqual(face("Inter", 350)?.weight, 300, "below 400: lighter first")
        XCTAssertEqual(face("Inter", 450)?.weight, 500, "400–500: up to 500 first")
        // DejaVu Sans has Book (400) and Bold (700) normal faces (ExtraLight 200 where fonts-dejavu-extra is installed).
        XCTAssertEqual(face("DejaVu Sans", 600)?.weight, 700)
        XCTAssertEqual(face("DejaVu Sans", 500)?.weight, 400, "400–500 with nothing up to 500: lighter, descending")
        XCTAssertEqual(face("DejaVu Sans", 400, .oblique)?.style, .italic, "oblique falls back to the italic (oblique) face")
        XCTAssertEqual(face("DejaVu Sans", 400)?.widthClass, 5, "the condensed faces lose to the normal width")
    }

    func testAFontDirectoryAddsItsFiles() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("fonts-\(UInt64.random(in: 0...UInt64.max))")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        try FileManager.default.copyItem(atPath: "/usr/share/fonts/truetype/dejavu/DejaVuSansMono.ttf", toPath: dir.appendingPathComponent("Mono.TTF").path)
        try Data("not a font".utf8).write(to: dir.appendingPathComponent("broken.otf"))
        try Data("notes".utf8).write(to: dir.appendingPathComponent("README"))
        let own = FontCatalog(directories: [dir.path, "/no/such/folder"])
        XCTAssertEqual(own.allFamilies.map(\.family), ["DejaVu Sans Mono"], "the font is read, the rest skipped")
        XCTAssertEqual(own.match(FontRequest(family: "dejavu sans mono", size: 10, weight: 900))?.path, dir.appendingPathComponent("Mono.TTF").path)
    }
}
