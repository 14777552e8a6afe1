import Foundation
import JSONCodec
import ScrollStackRender
@testable import ScrollStackService
import ScrollStackStore
import ScrollStackText
import TestHTTPClient
import XCTest

/// Fonts uploaded over HTTP (`POST /v1/fonts`): validated, listed, used by text at once and
/// after a restart, kept while text uses them, and refused past the limits (Docs/API.md,
/// "Fonts").
final class FontUploadTests: XCTestCase {
    /// Liberation Sans is not among the default fonts (Inter, DejaVu); `make test` installs
    /// fonts-liberation (the Makefile's TEST_APT_PACKAGES).
    static let liberation = "/usr/share/fonts/truetype/liberation"
    var regular: [UInt8] = []
    var bold: [UInt8] = []
    var directory: URL!
    var path: String { directory.appendingPathComponent("journal.sqlite").path }

    override func setUpWithError() throws {
        let file = Self.liberation + "/LiberationSans-Regular.ttf"
        guard FileManager.default.fileExists(atPath: file) else { throw XCTSkip("fonts-liberation is not installed") }
        regular = Array(try Data(contentsOf: URL(fileURLWithPath: file)))
        bold = Array(try Data(contentsOf: URL(fileURLWithPath: Self.liberation + "/LiberationSans-Bold.ttf")))
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("ssupload-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    }

    override func tearDown() {
        if let directory { try? FileManager.default.removeItem(at: directory) }
    }

    /// A server over the SQLite journal at `path`, restored (as a restart does), with `limits`.
    func start(limits: ServiceLimits = ServiceLimits(), maxBodyBytes: Int = 1 << 20) throws -> ServerHarness {
        let service = StackService(journal: try StackJournal(path: path), limits: limits)
        try service.restore()
        return try ServerHarness(service: service, maxBodyBytes: maxBodyBytes)
    }

    func upload(_ server: ServerHarness, _ bytes: [UInt8], type: String = "font/ttf") throws -> Reply {
        try server.raw("POST", "/v1/fonts", body: bytes, headers: [("Content-Type", type)])
    }

    func label(_ id: String, family: String, text: String = "Wavy Typography", weight: Int = 400) -> JSON {
        object(("id", .string(id)), ("view", object(("type", "Label"))), ("size", "fit"),
               ("content", object(("text", .string(text)),
                                  ("font", object(("family", .string(family)), ("size", 16), ("weight", .integer(Int64(weight))))))))
    }

    /// The width of the first line of the stack's first row's text, as laid out.
    func lineWidth(_ server: ServerHarness, stack: String) throws -> Double {
        let layout = try server.request("GET", "/v1/stacks/\(stack)/layout?content=frames")
        XCTAssertEqual(layout.status, 200, layout.text)
        return try XCTUnwrap(layout["rows[0].content.lines[0].width"]?.doubleValue, layout.text)
    }

    /// The same text's line width with Liberation Sans loaded from its folder.
    func folderWidth(weight: Int = 400) throws -> Double {
        let service = StackService(fonts: FontCatalog(directories: FontCatalog.defaultDirectories + [Self.liberation]))
        let server = try ServerHarness(service: service)
        defer { server.stop() }
        XCTAssertEqual(try server.request("POST", "/v1/stacks", json: object(("id", "f"), ("rows", [label("t", family: "Liberation Sans", weight: weight)]))).status, 201)
        return try lineWidth(server, stack: "f")
    }

    func testUploadListGetMeasureRestartAndDelete() throws {
        var server = try start(maxBodyBytes: 64 << 10)
        // Larger than --max-body-bytes (64 KiB here): the route takes fonts up to maxFontBytes.
        let created = try upload(server, regular)
        XCTAssertEqual(created.status, 201, created.text)
        let id = try XCTUnwrap(created["id"]?.stringValue)
        XCTAssertEqual(id.count, 16)
        XCTAssertEqual(created.header("Location"), "/v1/fonts/\(id)")
        XCTAssertEqual(created["bytes"]?.int64Value, Int64(regular.count))
        XCTAssertEqual(created["faces"], [object(("family", "Liberation Sans"), ("weight", 400), ("style", "normal"), ("width", 5))])
        let again = try upload(server, regular, type: "application/octet-stream")
        XCTAssertEqual(again.status, 200, "the same bytes again: the same font")
        XCTAssertEqual(again.json, created.json)
        XCTAssertEqual(try server.request("GET", "/v1/fonts/\(id)").json, created.json)
        XCTAssertEqual(try server.request("GET", "/v1/fonts/0123456789abcdef").errorCode, "font_not_found")

        let list = try server.request("GET", "/v1/fonts")
        let families = try XCTUnwrap(list["families"]?.arrayValue)
        let liberation = try XCTUnwrap(families.first { $0["family"]?.stringValue == "Liberation Sans" })
        XCTAssertEqual(liberation["faces"], [object(("weight", 400), ("style", "normal"), ("id", .string(id)))])
        let inter = try XCTUnwrap(families.first { $0["family"]?.stringValue == "Inter" })
        XCTAssertNil(inter["faces"]?.arrayValue?.first?["id"], "the server's faces carry no id")

        // Text uses it at once, measured as the same font loaded from a folder, not as a fallback.
        XCTAssertEqual(try server.request("POST", "/v1/stacks", json: object(("id", "uses"), ("rows", [label("t", family: "Liberation Sans")]))).status, 201)
        XCTAssertEqual(try server.request("POST", "/v1/stacks", json: object(("id", "dejavu"), ("rows", [label("t", family: "DejaVu Sans")]))).status, 201)
        let width = try lineWidth(server, stack: "uses")
        XCTAssertEqual(width, try folderWidth())
        XCTAssertNotEqual(width, try lineWidth(server, stack: "dejavu"))
        let svg = try server.request("GET", "/v1/stacks/uses/layout.svg")
        XCTAssertEqual(svg.status, 200, svg.text)

        // Bold joins the family; CSS matching picks it for weight 700.
        let boldFont = try upload(server, bold)
        XCTAssertEqual(boldFont.status, 201, boldFont.text)
        let boldID = try XCTUnwrap(boldFont["id"]?.stringValue)
        XCTAssertEqual(try server.request("POST", "/v1/stacks", json: object(("id", "bold"), ("rows", [label("t", family: "Liberation Sans", weight: 700)]))).status, 201)
        XCTAssertEqual(try lineWidth(server, stack: "bold"), try folderWidth(weight: 700))

        // A restart reads the fonts before the stacks: they lay out as before.
        let before = try server.request("GET", "/v1/stacks/uses/layout").text
        server.stop()
        server = try start()
        XCTAssertEqual(try server.request("GET", "/v1/stacks/uses/layout").text, before)
        XCTAssertEqual(try server.request("GET", "/v1/fonts/\(id)").json, created.json)

        // In use: refused, naming the stack; the font stays usable.
        let refused = try server.request("DELETE", "/v1/fonts/\(id)")
        XCTAssertEqual(refused.status, 409, refused.text)
        XCTAssertEqual(refused.errorCode, "font_in_use")
        XCTAssertTrue(refused["error.message"]?.stringValue?.contains("\"bold\"") ?? false, refused.text)
        XCTAssertEqual(try server.request("POST", "/v1/stacks", json: object(("id", "more"), ("rows", [label("t", family: "Liberation Sans")]))).status, 201)
        for stack in ["uses", "bold", "more"] { XCTAssertEqual(try server.request("DELETE", "/v1/stacks/\(stack)").status, 204) }
        XCTAssertEqual(try server.request("DELETE", "/v1/fonts/\(id)").status, 204)
        XCTAssertEqual(try server.request("DELETE", "/v1/fonts/\(id)").errorCode, "font_not_found")
        XCTAssertEqual(try server.request("DELETE", "/v1/fonts/\(boldID)").status, 204)
        let gone = try server.request("POST", "/v1/stacks", json: object(("id", "late"), ("rows", [label("t", family: "Liberation Sans")])))
        XCTAssertEqual(gone.status, 422, "the family is gone")
        server.stop()

        // And stays gone after a restart.
        server = try start()
        XCTAssertEqual(try server.request("GET", "/v1/fonts/\(id)").status, 404)
        XCTAssertEqual(try server.request("GET", "/v1/stacks/dejavu").status, 200)
        server.stop()
    }

    /// A deleted font's faces that pictures drew with are let go (their bytes go when cairo's
    /// caches drop them), so fonts uploaded, drawn and deleted over and over hold nothing.
    func testPicturesLetGoOfADeletedFont() throws {
        let server = try start()
        defer { server.stop() }
        let created = try upload(server, regular)
        let id = try XCTUnwrap(created["id"]?.stringValue, created.text)
        let body = object(("viewport", object(("width", 300), ("height", 100))), ("rows", [label("t", family: "Liberation Sans", weight: 700)]))
        XCTAssertEqual(try server.request("POST", "/v1/layout.png", json: body).status, 200)
        XCTAssertEqual(try server.request("POST", "/v1/layout.svg", json: body).status, 200)
        XCTAssertEqual(CairoCanvas.facesOpen(fontID: id), 1, "one face, bold synthesized")
        XCTAssertEqual(try server.request("DELETE", "/v1/fonts/\(id)").status, 204)
        XCTAssertEqual(CairoCanvas.facesOpen(fontID: id), 0)
        // Uploaded again, it draws again.
        XCTAssertEqual(try upload(server, regular).status, 201)
        XCTAssertEqual(try server.request("POST", "/v1/layout.png", json: body).status, 200)
        XCTAssertEqual(CairoCanvas.facesOpen(fontID: id), 1)
    }

    func testRefusals() throws {
        var limits = ServiceLimits()
        limits.maxFontBytes = 500_000
        limits.maxUploadedFonts = 1
        let server = try start(limits: limits)
        defer { server.stop() }
        let garbage = try upload(server, Array("not a font at all".utf8))
        XCTAssertEqual(garbage.status, 422, garbage.text)
        XCTAssertEqual(garbage.errorCode, "font_unusable")
        XCTAssertEqual(try upload(server, []).errorCode, "font_unusable")
        let json = try upload(server, regular, type: "application/json")
        XCTAssertEqual(json.status, 415, json.text)
        let large = Array(try Data(contentsOf: URL(fileURLWithPath: "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf")))
        XCTAssertGreaterThan(large.count, 500_000)
        let tooLarge = try upload(server, large)
        XCTAssertEqual(tooLarge.status, 413, tooLarge.text)
        XCTAssertEqual(tooLarge.errorCode, "payload_too_large")
        let reserved = try upload(server, Array(try Data(contentsOf: URL(fileURLWithPath: "/usr/share/fonts/truetype/dejavu/DejaVuSansMono.ttf"))))
        XCTAssertEqual(reserved.status, 409, reserved.text)
        XCTAssertEqual(reserved.errorCode, "font_family_reserved")
        XCTAssertEqual(try upload(server, regular).status, 201)
        let full = try upload(server, bold)
        XCTAssertEqual(full.status, 409, full.text)
        XCTAssertEqual(full.errorCode, "font_limit_reached")
        XCTAssertEqual(try server.request("GET", "/v1/fonts").status, 200)
        XCTAssertEqual(try server.raw("POST", "/v1/fonts", body: garbage.body, headers: [("Content-Type", "font/otf")]).errorCode, "font_unusable")
    }

    func testAFaceLikeAnUploadedOneIsRefused() throws {
        let server = try start()
        defer { server.stop() }
        XCTAssertEqual(try upload(server, regular).status, 201)
        // The same face in other bytes (a copy with one more byte at its end).
        let copy = try upload(server, regular + [0])
        XCTAssertEqual(copy.status, 409, copy.text)
        XCTAssertEqual(copy.errorCode, "font_face_exists")
    }

    func testTheTotalBytesLimit() throws {
        var limits = ServiceLimits()
        limits.maxUploadedFontBytes = regular.count + bold.count - 1
        let server = try start(limits: limits)
        defer { server.stop() }
        XCTAssertEqual(try upload(server, regular).status, 201)
        let full = try upload(server, bold)
        XCTAssertEqual(full.status, 409, full.text)
        XCTAssertEqual(full.errorCode, "font_limit_reached")
        XCTAssertEqual(try server.request("GET", "/v1/fonts/\(UploadedFont.id(of: bold))").status, 404, "nothing stored")
    }

    /// Text is measured and drawn on several threads while the font is uploaded and deleted
    /// again and again: every answer is the font's measure or 422 for a family not there.
    func testMeasuringWhileFontsComeAndGo() throws {
        let server = try start()
        defer { server.stop() }
        let body = object(("viewport", object(("width", 320), ("height", 600))), ("rows", [label("t", family: "Liberation Sans")])).serialized()
        let port = server.port
        let expected = try folderWidth()
        let stop = ManagedAtomicFlag()
        let failures = LockedList()
        let group = DispatchGroup()
        for _ in 0..<3 {
            group.enter()
            Thread {
                defer { group.leave() }
                while !stop.isSet {
                    guard let response = try? httpRequest(port: port, method: "POST", path: "/v1/layout?content=frames",
                                                          headers: [("Content-Type", "application/json")], body: body) else {
                        failures.append("no answer")
                        continue
                    }
                    let answer = Reply(response)
                    if answer.status == 200 {
                        if answer["rows[0].content.lines[0].width"]?.doubleValue != expected { failures.append(answer.text) }
                    } else if answer.status != 422 || answer.errorCode != "invalid_value" {
                        failures.append(answer.text)
                    }
                }
            }.start()
        }
        let id = UploadedFont.id(of: regular)
        for _ in 0..<20 {
            XCTAssertEqual(try upload(server, regular).status, 201)
            XCTAssertEqual(try server.request("GET", "/v1/stacks").status, 200)
            XCTAssertEqual(try server.request("DELETE", "/v1/fonts/\(id)").status, 204)
        }
        stop.set()
        XCTAssertEqual(group.wait(timeout: .now() + 60), .success, "the measuring threads stopped within 60 s")
        XCTAssertEqual(failures.items, [])
    }

    /// The daemon takes a font larger than --max-body-bytes on this route only, up to
    /// --max-font-bytes (413 unread beyond).
    func testTheDaemonsBodyLimitForFonts() throws {
        var daemon = try Daemon.start(["--in-memory", "--log-level", "notice", "--max-body-bytes", "1024"])
        let stored = try httpRequest(port: daemon.port, method: "POST", path: "/v1/fonts", headers: [("Content-Type", "font/ttf")], body: regular)
        XCTAssertEqual(stored.status, 201)
        let json = try httpRequest(port: daemon.port, method: "POST", path: "/v1/stacks", headers: [("Content-Type", "application/json")],
                                   body: Array(repeating: UInt8(ascii: " "), count: 2048))
        XCTAssertEqual(json.status, 413, "other routes keep --max-body-bytes")
        XCTAssertEqual(try daemon.stop(), 0)
        daemon = try Daemon.start(["--in-memory", "--log-level", "notice", "--max-font-bytes", "100000"])
        let large = Reply(try httpRequest(port: daemon.port, method: "POST", path: "/v1/fonts", headers: [("Content-Type", "font/ttf")], body: regular))
        XCTAssertEqual(large.status, 413, large.text)
        XCTAssertEqual(large.errorCode, "payload_too_large")
        XCTAssertEqual(try daemon.stop(), 0)
    }
}

/// A flag set once, read from any thread.
final class ManagedAtomicFlag: @unchecked Sendable {
    private let lock = NSLock()
    private var value = false
    var isSet: Bool { lock.withLock { value } }
    func set() { lock.withLock { value = true } }
}

/// A list appended to from any thread.
final class LockedList: @unchecked Sendable {
    private let lock = NSLock()
    private var list: [String] = []
    var items: [String] { lock.withLock { list } }
    func append(_ item: String) { lock.withLock { list.append(item) } }
}
