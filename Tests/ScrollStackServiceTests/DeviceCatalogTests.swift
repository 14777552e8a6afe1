import Foundation
import JSONCodec
import XCTest

/// The built-in devices over HTTP: current phones and tablets of both platforms, upright and
/// turned, with their safe areas, as `GET /v1/devices` lists them and layouts answer them.
final class DeviceCatalogTests: XCTestCase {
    var harness: ServerHarness!

    override func setUpWithError() throws { harness = try ServerHarness() }
    override func tearDown() { harness.stop() }

    func insets(_ top: Double, _ left: Double, _ bottom: Double, _ right: Double) -> JSON {
        object(("top", .number(top)), ("left", .number(left)), ("bottom", .number(bottom)), ("right", .number(right)))
    }

    func testTheListHasBothPlatformsUprightAndTurned() throws {
        let reply = try harness.request("GET", "/v1/devices")
        XCTAssertEqual(reply.status, 200)
        let devices = try XCTUnwrap(reply["devices"]?.arrayValue)
        var byName: [String: JSON] = [:]
        for device in devices { byName[device["name"]?.stringValue ?? ""] = device }
        XCTAssertEqual(byName.count, devices.count, "names are unique")
        for name in ["iphone-se", "iphone-15", "iphone-16-pro", "iphone-16-pro-max", "ipad", "ipad-pro-13", "pixel-8", "galaxy-s24", "pixel-tablet"] {
            XCTAssertNotNil(byName[name], name)
            XCTAssertNotNil(byName[name + "-landscape"], name + "-landscape")
        }
        XCTAssertEqual(Set(devices.compactMap { $0["platform"]?.stringValue }), ["ios", "android"])
        // Every turned device is its upright one with width and height swapped.
        for device in devices where device["orientation"]?.stringValue == "portrait" {
            let name = device["name"]?.stringValue ?? ""
            let turned = try XCTUnwrap(byName[name + "-landscape"], name)
            XCTAssertEqual(turned["width"], device["height"], name)
            XCTAssertEqual(turned["height"], device["width"], name)
            XCTAssertEqual(turned["platform"], device["platform"], name)
            XCTAssertEqual(turned["orientation"], "landscape")
            XCTAssertLessThan(device["width"]?.doubleValue ?? 0, device["height"]?.doubleValue ?? 0, "\(name) is upright")
        }
        // Safe areas as the platforms report them.
        XCTAssertEqual(byName["iphone-16-pro-max"]?["width"], 440)
        XCTAssertEqual(byName["iphone-16-pro-max"]?["height"], 956)
        XCTAssertEqual(byName["iphone-16-pro-max"]?["safeArea"], insets(62, 0, 34, 0))
        XCTAssertEqual(byName["iphone-16-pro-max-landscape"]?["safeArea"], insets(0, 62, 21, 62))
        XCTAssertEqual(byName["iphone-se-landscape"]?["safeArea"], insets(0, 0, 0, 0))
        XCTAssertEqual(byName["ipad-landscape"]?["safeArea"], insets(24, 0, 20, 0))
        XCTAssertEqual(byName["pixel-8"]?["width"], 412)
        XCTAssertEqual(byName["pixel-8"]?["safeArea"], insets(24, 0, 24, 0))
        XCTAssertEqual(try harness.request("GET", "/v1/devices?x=1").errorCode, "bad_query_parameter")
        // The contract's DeviceName lists exactly these names, in this order.
        let contract = try String(contentsOf: DiscoveryTests.contractFile, encoding: .utf8)
        let lines = contract.split(separator: "\n")
        let start = try XCTUnwrap(lines.firstIndex(of: "    DeviceName:"))
        let line = try XCTUnwrap(lines[start...].first { $0.hasPrefix("      enum: [") })
        let listed = line.dropFirst("      enum: [".count).dropLast().split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
        XCTAssertEqual(listed, devices.compactMap { $0["name"]?.stringValue })
    }

    func testLayoutsAnswerTheDeviceWithItsSafeArea() throws {
        let rows = JSON.array((0..<40).map { row("r\($0)", 100) })
        XCTAssertEqual(try harness.request("POST", "/v1/stacks", json: object(("id", "s"), ("rows", rows))).status, 201)
        let reply = try harness.request("GET", "/v1/stacks/s/layout?window=visible&devices=iphone-16-pro-landscape,pixel-8,galaxy-tab-s9-landscape")
        XCTAssertEqual(reply.status, 200, reply.text)
        XCTAssertEqual(reply["layouts[0].device"], object(("name", "iphone-16-pro-landscape"), ("width", 874), ("height", 402), ("platform", "ios"),
                                                          ("orientation", "landscape"), ("safeArea", insets(0, 62, 21, 62))))
        XCTAssertEqual(reply["layouts[0].viewport"], object(("width", 874), ("height", 402)), "the whole screen: the safe area does not change the layout")
        XCTAssertEqual(reply["layouts[1].device.platform"], "android")
        XCTAssertEqual(reply["layouts[2].viewport"], object(("width", 1280), ("height", 800)))
        // A device of one's own may give a safe area; it is custom, its orientation follows its size.
        let own = try harness.request("POST", "/v1/layout?window=visible", json: object(("rows", rows), ("devices", [
            object(("name", "kiosk"), ("width", 1920), ("height", 1080), ("safeArea", object(("bottom", 40))))])))
        XCTAssertEqual(own.status, 200, own.text)
        XCTAssertEqual(own["layouts[0].device"], object(("name", "kiosk"), ("width", 1920), ("height", 1080), ("platform", "custom"),
                                                        ("orientation", "landscape"), ("safeArea", insets(0, 0, 40, 0))))
        let bad = try harness.request("POST", "/v1/layout", json: object(("rows", rows), ("devices", [
            object(("name", "kiosk"), ("width", 10), ("height", 10), ("safeArea", object(("left", -1))))])))
        XCTAssertEqual(bad.errorField, "devices[0].safeArea.left")
        let unknown = try harness.request("GET", "/v1/stacks/s/layout?devices=nokia-3310")
        XCTAssertEqual(unknown.status, 400)
        XCTAssertTrue(unknown["error.message"]?.stringValue?.contains("GET /v1/devices") == true)
    }
}
