import JSONCodec
import MicroHTTP
import ScrollStackCore
@testable import ScrollStackService
import XCTest

/// Snapshot format 2 reads back exactly what it wrote, and a damaged or newer snapshot is a
/// precise error, never a crash.
final class SnapshotFormatTests: XCTestCase {
    /// The service's measurers (text in real fonts), as restores use them.
    let service = StackService()

    /// A stack using every member a row and the settings can have, made through the API;
    /// `deep` adds a row whose content nests 64 levels (the model's limit).
    func stackWithEverything(deep: Bool = true) throws -> ScrollStack {
        let service = StackService()
        var chain = object(("height", .real(1.0 / 3)))
        for i in 0..<63 { chain = object(("stack", i % 2 == 0 ? "vertical" : "horizontal"), ("children", [chain])) }
        let rows: [JSON] = [
            object(("id", "c"), ("controller", object(("type", "Cell"), ("instance", "i-1"), ("props", object(("n", .real(0.1)), ("s", "é\u{2028}"))))),
                   ("size", object(("fixed", .real(44.000000000000007))))),
            object(("id", "v"), ("view", object(("type", "V"))), ("size", "fit"),
                   ("content", object(("stack", "horizontal"), ("spacing", 2), ("padding", object(("top", 1), ("left", 2), ("bottom", 3), ("right", 4))),
                                      ("minWidth", 1), ("maxWidth", 900), ("minHeight", 2), ("maxHeight", 800),
                                      ("children", [object(("width", 10)), object(("height", 12)), object(("aspectRatio", .real(4.0 / 3))), object(("width", 5), ("height", 6))])))),
            object(("id", "all"), ("controller", object(("type", "X"))), ("size", object(("fixed", 30))),
                   ("insets", object(("top", .real(0.5)), ("left", 1), ("bottom", 2), ("right", 3))),
                   ("separator", object(("hidden", false), ("thickness", .real(0.25)), ("insets", object(("left", 9))), ("color", "#12345678"))),
                   ("hidden", true), ("tappable", true), ("highlightable", true), ("title", object(("text", "Tïtle"), ("width", 80), ("selectedWidth", 90))),
                   ("transition", object(("hide", object(("alpha", .real(0.25)), ("translate", object(("x", -3), ("y", .real(0.5)))), ("scale", .real(0.9)))),
                                         ("show", object(("alpha", 1))))),
                   ("style", object(("background", "#0A84FF"), ("cornerRadius", .real(12.5)), ("border", object(("width", 2), ("color", "#00000080"))),
                                    ("textColor", "#FFFFFF"), ("image", object(("aspectRatio", .real(16.0 / 9)), ("fill", "#FF9500")))))),
            object(("id", "label"), ("view", object(("type", "L"))), ("size", "fit"),
                   ("content", object(("stack", "vertical"), ("children", [
                       object(("text", "Notifications ünd more text that wraps"), ("font", object(("family", "Inter"), ("size", 17), ("weight", 600), ("style", "italic"))),
                              ("lineHeight", 22), ("letterSpacing", .real(-0.5)), ("maxLines", 2), ("align", "center"), ("maxWidth", 200)),
                       object(("text", "plain"), ("font", object(("family", "DejaVu Sans"), ("size", .real(12.5))))),
                   ])))),
            object(("id", "half"), ("view", object(("type", "H"))), ("size", object(("fixed", 30))), ("separator", object(("thickness", 3))), ("title", "Only text"),
                   ("transition", object(("show", object(("scale", 2))))), ("style", object(("textColor", "#333333")))),
        ] + (deep ? [object(("id", "deep"), ("view", object(("type", "D"), ("props", "text"))), ("size", object(("vertical", "fit"), ("horizontal", object(("fixed", 7))))), ("content", chain))] : [])
        let body = object(("id", "x"), ("axis", "horizontal"), ("viewport", object(("width", 375), ("height", 600))), ("spacing", .real(1.0 / 3)),
                          ("offset", object(("x", 12), ("y", 0))), ("paging", object(("size", object(("fraction", 1))))),
                          ("pageIndicator", object(("hidesForSinglePage", true))), ("menu", object(("itemSize", object(("fixed", object(("width", 120), ("height", 44))))))),
                          ("rows", .array(rows)))
        let created = service.handle(HTTPRequest(method: "POST", path: "/v1/stacks", headers: [("Content-Type", "application/json")], body: body.serialized(realPrecision: 17)))
        XCTAssertEqual(created.status, 201, String(decoding: created.body, as: UTF8.self))
        return try service.store.entry("x").read { stack, _ throws(APIError) in stack }
    }

    func testEveryMemberReadsBackExactly() throws {
        let stack = try stackWithEverything()
        XCTAssertEqual(stack.count, 6)
        let bytes = SnapshotFormat.encode(stack)
        XCTAssertTrue(SnapshotFormat.isBinary(bytes))
        let decoded = try SnapshotFormat.decode(bytes, what: "the snapshot", measurer: service.measurer, titleMeasurer: service.titleMeasurer)
        XCTAssertEqual(decoded.rows, stack.rows)
        XCTAssertEqual(decoded.settings, stack.settings)
        XCTAssertEqual(ModelEncoding.stackText(id: "x", revision: 1, decoded, realPrecision: 17),
                       ModelEncoding.stackText(id: "x", revision: 1, stack, realPrecision: 17))
        XCTAssertEqual(SnapshotFormat.encode(decoded), bytes, "encoding is a function of the state")
        XCTAssertLessThan(bytes.count, ModelEncoding.stackText(id: "x", revision: 1, stack, realPrecision: 17).count)
    }

    /// A snapshot's rows are written from the columns (`forEachRowElement`: no `Row` for a
    /// row that sets only id, content, size and hidden) with the bytes each whole `Row`
    /// encodes to: rows with every member, plain views and controllers (instances,
    /// properties, hidden ones) in one stack.
    func testRowsWrittenFromTheColumnsAreTheWholeRowsBytes() throws {
        var stack = try stackWithEverything()
        var plain: [Row] = []
        for i in 0..<40 {
            let instance: String? = i % 2 == 0 ? "in\(i)" : nil
            let properties: String? = i % 4 == 0 ? "{\"k\":\(i)}" : nil
            let content: RowContent = i % 3 == 0
                ? .controller(ControllerDescriptor(type: "C", instance: instance, properties: properties))
                : .view(ViewDescriptor(type: "V\(i % 5)", properties: i % 7 == 0 ? "[1]" : nil))
            plain.append(Row(id: "p\(i)", content: content, size: .fixed(Double(20 + i)), hidden: i % 6 == 0))
        }
        _ = try stack.insert(plain, at: .index(2))
        var plainElements = 0, hiddenPlain = 0
        stack.forEachRowElement { element in
            if case .plain(_, _, _, let hidden) = element {
                plainElements += 1
                if hidden { hiddenPlain += 1 }
            }
        }
        XCTAssertEqual(plainElements, 41, "the rows without extras (40, and one of the first six) come from the columns")
        XCTAssertEqual(hiddenPlain, 7)
        var whole = ByteWriter(capacity: 0)
        stack.forEachRow { SnapshotFormat.encode($0, into: &whole) }
        let bytes = SnapshotFormat.encode(stack)
        XCTAssertGreaterThan(whole.bytes.count, 40 * 8)
        XCTAssertEqual(Array(bytes.suffix(whole.bytes.count)), whole.bytes)
        let decoded = try SnapshotFormat.decode(bytes, what: "the snapshot", measurer: service.measurer, titleMeasurer: service.titleMeasurer)
        XCTAssertEqual(decoded.rows, stack.rows)
    }

    /// Cut anywhere, or with a byte changed to each of a few values, a snapshot fails with
    /// `storage_unavailable` naming it (or, for a changed number or string, reads as another
    /// valid state): never a crash.
    func testDamagedSnapshotsAreErrors() throws {
        let bytes = SnapshotFormat.encode(try stackWithEverything(deep: false))
        for cut in 0..<bytes.count {
            XCTAssertThrowsError(try SnapshotFormat.decode(Array(bytes[..<cut]), what: "the snapshot of x", measurer: service.measurer, titleMeasurer: service.titleMeasurer)) { error in
                XCTAssertTrue("\(error)".contains("the snapshot of x"), "\(error)")
            }
        }
        for position in SnapshotFormat.magic.count..<bytes.count {
            for value: UInt8 in [0, 3, 0x7F, 0xFF] {
                var damaged = bytes
                damaged[position] = value
                do { _ = try SnapshotFormat.decode(damaged, what: "the snapshot of x", measurer: service.measurer, titleMeasurer: service.titleMeasurer) } catch {
                    XCTAssertEqual(error.code, .storageUnavailable)
                    XCTAssertTrue(error.message.contains("the snapshot of x"), error.message)
                }
            }
        }
        var newer = bytes
        newer[SnapshotFormat.magic.count] = SnapshotFormat.version + 1
        XCTAssertThrowsError(try SnapshotFormat.decode(newer, what: "the snapshot of x", measurer: service.measurer, titleMeasurer: service.titleMeasurer)) { error in
            XCTAssertTrue("\(error)".contains("format 3; this server reads formats 1 and 2"), "\(error)")
        }
    }
}
