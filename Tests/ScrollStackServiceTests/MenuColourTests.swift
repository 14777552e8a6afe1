import Foundation
import JSONCodec
import ScrollStackService
import ScrollStackStore
import XCTest

/// The paging menu's colours (Parchment's `PagingOptions` colours and `PagingTitleCell`'s
/// interpolation) over HTTP: defaulted and echoed with the settings, strictly checked,
/// answered per item in layouts, drawn in pictures, kept across a restart.
///
/// Four full-width pages of 375 (page k rests at 375·k) under a menu of fixed items 100 wide.
final class MenuColourTests: XCTestCase {
    var server: ServerHarness!

    override func setUpWithError() throws { server = try ServerHarness() }
    override func tearDown() { server.stop() }

    func j(_ text: String) throws -> JSON { try JSON.parse(Array(text.utf8)) }

    /// The carousel's create body with `colours` (JSON members, without braces) in its menu.
    static func body(_ colours: String) -> String {
        MenuCarousel.body(pages: 4, menu: colours)
    }

    func create(_ colours: String = "", on server: ServerHarness? = nil) throws -> Reply {
        try (server ?? self.server).request("POST", "/v1/stacks", json: try j(Self.body(colours)))
    }

    /// Custom colours used below. Half-way (f = 0.5) from text #102030FF to selected #F0A05080,
    /// channel by channel from + (to − from) · f, rounded to the nearest (halves away from 0):
    /// 16 + 224/2 = 128, 32 + 128/2 = 96, 48 + 32/2 = 64, 255 − 127/2 = 191.5 → 192: #806040C0.
    /// Background from #00000000 to #FFCC0066: 127.5 → 128, 102, 0, 51: #80660033.
    static let custom = ##""textColor": "#102030", "selectedTextColor": "#f0a05080", "selectedBackgroundColor": "#FFCC0066", "indicatorColor": "#FF0000", "borderColor": "#00FF0080", "menuBackgroundColor": "#0A0B0C""##

    /// Parchment's `PagingOptions` defaults: black titles, the selected one #037DE9 (3, 125,
    /// 233), clear item backgrounds, the indicator #037DE9, the border white 0.9 (229.5 → 230,
    /// #E6), a white menu background.
    func testDefaultsAreParchments() throws {
        let created = try create()
        XCTAssertEqual(created.status, 201, created.text)
        let expected = [("textColor", "#000000FF"), ("selectedTextColor", "#037DE9FF"), ("backgroundColor", "#00000000"),
                        ("selectedBackgroundColor", "#00000000"), ("indicatorColor", "#037DE9FF"), ("borderColor", "#E6E6E6FF"),
                        ("menuBackgroundColor", "#FFFFFFFF")]
        for (name, value) in expected {
            XCTAssertEqual(created["menu." + name]?.stringValue, value, name)
        }
        // At rest on page 1: item 1 is wholly selected (progress 1), the others not at all.
        let layout = try server.request("GET", "/v1/stacks/c/layout?offset=375")
        XCTAssertEqual(layout.status, 200, layout.text)
        XCTAssertEqual(layout["menu.items[1].progress"], 1)
        XCTAssertEqual(layout["menu.items[1].textColor"]?.stringValue, "#037DE9FF", layout.text)
        XCTAssertEqual(layout["menu.items[1].backgroundColor"]?.stringValue, "#00000000")
        for k in [0, 2, 3] {
            XCTAssertEqual(layout["menu.items[\(k)].progress"], 0)
            XCTAssertEqual(layout["menu.items[\(k)].textColor"]?.stringValue, "#000000FF")
        }
        XCTAssertEqual(layout["menu.indicatorColor"]?.stringValue, "#037DE9FF")
        XCTAssertEqual(layout["menu.borderColor"]?.stringValue, "#E6E6E6FF")
        XCTAssertEqual(layout["menu.menuBackgroundColor"]?.stringValue, "#FFFFFFFF")
    }

    /// Half-way between pages 1 and 2 (offset 562.5) item 1 is the current item at
    /// 1 − 0.5 and item 2 the upcoming one at 0.5 (`PagingCollectionViewLayout`'s progress
    /// per item): both take the half-way colours worked out above; items 0 and 3 keep the
    /// normal colours.
    func testHalfWayBetweenTwoPagesInterpolatesTheColours() throws {
        XCTAssertEqual(try create(Self.custom).status, 201)
        let stack = try server.request("GET", "/v1/stacks/c")
        XCTAssertEqual(stack["menu.selectedTextColor"]?.stringValue, "#F0A05080", "written #RRGGBBAA in capitals")
        XCTAssertEqual(stack["menu.textColor"]?.stringValue, "#102030FF")
        let layout = try server.request("GET", "/v1/stacks/c/layout?offset=562.5")
        XCTAssertEqual(layout.status, 200, layout.text)
        for k in [1, 2] {
            XCTAssertEqual(layout["menu.items[\(k)].progress"], 0.5)
            XCTAssertEqual(layout["menu.items[\(k)].textColor"]?.stringValue, "#806040C0", layout.text)
            XCTAssertEqual(layout["menu.items[\(k)].backgroundColor"]?.stringValue, "#80660033")
        }
        for k in [0, 3] {
            XCTAssertEqual(layout["menu.items[\(k)].textColor"]?.stringValue, "#102030FF")
            XCTAssertEqual(layout["menu.items[\(k)].backgroundColor"]?.stringValue, "#00000000")
        }
        XCTAssertEqual(layout["menu.indicatorColor"]?.stringValue, "#FF0000FF")
        XCTAssertEqual(layout["menu.borderColor"]?.stringValue, "#00FF0080")
        XCTAssertEqual(layout["menu.menuBackgroundColor"]?.stringValue, "#0A0B0CFF")
        // A quarter of the way (offset 468.75): item 1 at 0.75, item 2 at 0.25.
        // 0.75: 16 + 168 = 184, 32 + 96 = 128, 48 + 24 = 72, 255 − 95.25 = 159.75 → 160: #B88048A0.
        // 0.25: 16 + 56 = 72, 32 + 32 = 64, 48 + 8 = 56, 255 − 31.75 = 223.25 → 223: #484038DF.
        let quarter = try server.request("GET", "/v1/stacks/c/layout?offset=468.75")
        XCTAssertEqual(quarter["menu.items[1].progress"], 0.75)
        XCTAssertEqual(quarter["menu.items[1].textColor"]?.stringValue, "#B88048A0", quarter.text)
        XCTAssertEqual(quarter["menu.items[2].progress"], 0.25)
        XCTAssertEqual(quarter["menu.items[2].textColor"]?.stringValue, "#484038DF")
        // A PATCH merges one colour and keeps the others.
        let patched = try server.request("PATCH", "/v1/stacks/c", json: try j(##"{"menu": {"textColor": "#FFFFFF"}}"##))
        XCTAssertEqual(patched.status, 200, patched.text)
        let merged = try server.request("GET", "/v1/stacks/c")
        XCTAssertEqual(merged["menu.textColor"]?.stringValue, "#FFFFFFFF")
        XCTAssertEqual(merged["menu.selectedTextColor"]?.stringValue, "#F0A05080")
    }

    func testBadColoursNameTheField() throws {
        let bad = try create(##""selectedTextColor": "blue""##)
        XCTAssertEqual(bad.status, 422, bad.text)
        XCTAssertEqual(bad.errorField, "menu.selectedTextColor")
        XCTAssertEqual(bad["error.code"]?.stringValue, "invalid_value", "a known member with a bad value")
        XCTAssertTrue(bad["error.message"]?.stringValue?.contains("#RRGGBB or #RRGGBBAA") == true, bad.text)
        let wrong = try create(##""menuBackgroundColor": 7"##)
        XCTAssertEqual(wrong.status, 422, wrong.text)
        XCTAssertEqual(wrong.errorField, "menu.menuBackgroundColor")
        XCTAssertEqual(wrong["error.code"]?.stringValue, "wrong_type")
        XCTAssertEqual(try create().status, 201)
        let short = try server.request("PATCH", "/v1/stacks/c", json: try j(##"{"menu": {"borderColor": "#12345"}}"##))
        XCTAssertEqual(short.status, 422, short.text)
        XCTAssertEqual(short.errorField, "menu.borderColor")
        XCTAssertEqual(short["error.code"]?.stringValue, "invalid_value")
        XCTAssertEqual(try server.request("GET", "/v1/stacks/c")["revision"], 1, "nothing changed")
    }

    /// The SVG draws the menu in its colours: the background, each item's background (when not
    /// clear) and title at its progress, the border and the indicator; never the default blue.
    func testSvgDrawsTheMenuInItsColours() throws {
        XCTAssertEqual(try create(Self.custom).status, 201)
        let svg = try server.request("GET", "/v1/stacks/c/layout.svg?offset=562.5")
        XCTAssertEqual(svg.status, 200, svg.text)
        let text = svg.text
        func lines(_ prefix: String) -> [String] { text.components(separatedBy: "\n").filter { $0.hasPrefix(prefix) } }
        let background = lines(##"<rect class="menu-background""##)
        XCTAssertEqual(background.count, 1, text)
        XCTAssertTrue(background.first?.contains(##"fill="#0A0B0C" fill-opacity="1""##) == true, background.description)
        // Items 1 and 2 half-way: title #806040 at 192/255, background #806600 at 51/255.
        XCTAssertEqual(text.components(separatedBy: ##"<g class="text" fill="#806040" fill-opacity="0.753">"##).count - 1, 2, text)
        XCTAssertEqual(text.components(separatedBy: ##"<g class="text" fill="#102030" fill-opacity="1">"##).count - 1, 2, text)
        let itemBackgrounds = lines(##"<rect class="menu-item-background""##)
        XCTAssertEqual(itemBackgrounds.count, 2, "clear backgrounds are not drawn")
        for line in itemBackgrounds { XCTAssertTrue(line.contains(##"fill="#806600" fill-opacity="0.2""##), line) }
        XCTAssertTrue(lines(##"<rect class="menu-border""##).first?.contains(##"fill="#00FF00" fill-opacity="0.502""##) == true, text)
        XCTAssertTrue(lines(##"<rect class="menu-indicator""##).first?.contains(##"fill="#FF0000" fill-opacity="1""##) == true, text)
        XCTAssertFalse(text.contains("#037DE9"), "the default blue is not drawn")
    }

    /// The PNG draws the same colours: the indicator in `indicatorColor`, the menu background,
    /// and over it item 1's half-way background and the half-transparent border, composited.
    func testPngDrawsTheMenuInItsColours() throws {
        XCTAssertEqual(try create(Self.custom).status, 201)
        let svg = try server.request("GET", "/v1/stacks/c/layout.svg?offset=562.5").text
        let png = try PNGImage(try server.request("GET", "/v1/stacks/c/layout.png?offset=562.5").body)
        /// The numbers of the first element starting with `prefix`, by attribute.
        func numbers(_ prefix: String, _ names: [String]) throws -> [Double] {
            let start = try XCTUnwrap(svg.range(of: prefix), prefix)
            let element = svg[start.lowerBound..<(try XCTUnwrap(svg[start.lowerBound...].firstIndex(of: ">")))]
            return try names.map { name in
                let value = try XCTUnwrap(element.range(of: " \(name)=\""), "\(name) in \(element)")
                let rest = element[value.upperBound...]
                return try XCTUnwrap(Double(rest[..<(try XCTUnwrap(rest.firstIndex(of: "\"")))]))
            }
        }
        let translate = try XCTUnwrap(svg.range(of: "<g class=\"content-space\" transform=\"translate("))
        let pair = svg[translate.upperBound...].prefix { $0 != ")" }.split(separator: ",").compactMap { Double($0) }
        XCTAssertEqual(pair.count, 2)
        func assertPixel(_ x: Double, _ y: Double, _ expected: (Int, Int, Int), _ what: String, line: UInt = #line) {
            let got = png.rgb(Int(pair[0] + x), Int(pair[1] + y))
            XCTAssertTrue(abs(got.0 - expected.0) <= 2 && abs(got.1 - expected.1) <= 2 && abs(got.2 - expected.2) <= 2,
                          "\(what): \(got), expected \(expected)", line: line)
        }
        let indicator = try numbers("<rect class=\"menu-indicator\"", ["x", "y", "width", "height"])
        assertPixel(indicator[0] + indicator[2] / 2, indicator[1] + indicator[3] / 2, (255, 0, 0), "the indicator")
        let menu = try numbers("<rect class=\"menu-background\"", ["x", "y"])
        assertPixel(menu[0] + 2.5, menu[1] + 2.5, (10, 11, 12), "the menu background, #0A0B0C")
        // The half-way #80660033 (#806600 at 0x33/255 = 0.2) over #0A0B0C:
        // 10 + 118 · 0.2 ≈ 33.6, 11 + 91 · 0.2 ≈ 29.2, 12 − 12 · 0.2 ≈ 9.6.
        let item = try numbers("<rect class=\"menu-item-background\"", ["x", "y"])
        assertPixel(item[0] + 2.5, item[1] + 2.5, (34, 29, 10), "item 1's background")
        // #00FF00 at 0x80/255 ≈ 0.502 over #0A0B0C: 10 − 5 = 5, 11 + 244 · 0.502 ≈ 133.5, 12 − 6 = 6.
        let border = try numbers("<rect class=\"menu-border\"", ["x", "y", "height"])
        assertPixel(border[0] + 2.5, border[1] + border[2] / 2, (5, 133, 6), "the border")
    }

    /// The colours are journaled with the settings and kept in snapshots: after a restart the
    /// stack, its layout and its picture are the same, byte for byte.
    func testColoursSurviveARestart() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("ssmenucolours-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("journal.sqlite").path
        let targets = ["/v1/stacks/c", "/v1/stacks/c/layout?offset=562.5", "/v1/stacks/c/layout.svg?offset=562.5",
                       "/v1/stacks/c/layout?revision=2&offset=562.5"]
        var before: [Reply] = []
        do {
            // A snapshot every 2 revisions: the restart reads settings from a snapshot and replays the rest.
            let first = try ServerHarness(service: StackService(journal: try StackJournal(path: path, snapshotInterval: 2)))
            XCTAssertEqual(try create(Self.custom, on: first).status, 201)
            for body in [##"{"menu": {"backgroundColor": "#0000FF40"}}"##, ##"{"menu": {"itemSpacing": 4}}"##,
                         ##"{"menu": {"indicatorColor": "#123456"}}"##] {
                let patched = try first.request("PATCH", "/v1/stacks/c", json: try j(body))
                XCTAssertEqual(patched.status, 200, patched.text)
            }
            before = try targets.map { try first.request("GET", $0) }
            first.stop()
        }
        let service = StackService(journal: try StackJournal(path: path, snapshotInterval: 2))
        XCTAssertEqual(try service.restore(), 1)
        let restarted = try ServerHarness(service: service)
        defer { restarted.stop() }
        for (target, old) in zip(targets, before) {
            let new = try restarted.request("GET", target)
            XCTAssertEqual(new.status, 200, target)
            XCTAssertTrue(new.body == old.body, target)
        }
        let stack = try restarted.request("GET", "/v1/stacks/c")
        XCTAssertEqual(stack["menu.backgroundColor"]?.stringValue, "#0000FF40")
        XCTAssertEqual(stack["menu.indicatorColor"]?.stringValue, "#123456FF")
        XCTAssertEqual(stack["menu.selectedBackgroundColor"]?.stringValue, "#FFCC0066")
        let old = try restarted.request("GET", "/v1/stacks/c/layout?revision=2&offset=562.5")
        XCTAssertEqual(old["menu.indicatorColor"]?.stringValue, "#FF0000FF", "revision 2 had the first indicator colour")
    }
}
