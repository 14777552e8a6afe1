import ScrollStackCore
import ScrollStackText
import XCTest

/// What a drawing synthesizes for the face CSS matching picks, over Debian's DejaVu: DejaVu
/// Math TeX Gyre has one face (400, upright), DejaVu Sans has bold and oblique faces.
final class FontSynthesisTests: XCTestCase {
    let catalog = FontCatalog(directories: FontCatalog.defaultDirectories)

    func synthesis(_ family: String, _ weight: Int, _ style: FontRequest.Style = .normal) throws -> FontSynthesis {
        let request = FontRequest(family: family, size: 12, weight: weight, style: style)
        return FontSynthesis(request: request, face: try XCTUnwrap(catalog.match(request), family))
    }

    func testBoldFrom600AndASlantForItalicOrObliqueWhereTheFaceLacksThem() throws {
        let math = "DejaVu Math TeX Gyre"
        XCTAssertEqual(try synthesis(math, 400), [])
        XCTAssertEqual(try synthesis(math, 599), [], "599 is not bold")
        XCTAssertEqual(try synthesis(math, 600), .bold)
        XCTAssertEqual(try synthesis(math, 900), .bold)
        XCTAssertEqual(try synthesis(math, 100, .italic), .oblique)
        XCTAssertEqual(try synthesis(math, 700, .oblique), [.bold, .oblique])
    }

    func testAFamilyWithTheFacesSynthesizesNothing() throws {
        for weight in stride(from: 100, through: 900, by: 100) {
            for style in FontRequest.Style.allCases {
                XCTAssertEqual(try synthesis("DejaVu Sans", weight, style), [], "\(weight) \(style)")
            }
        }
    }
}
