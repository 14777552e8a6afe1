import Foundation
import JSONCodec
@testable import ScrollStackCore
@testable import ScrollStackService
@testable import ScrollStackStore
import TestHTTPClient
import TestSeeds
import XCTest

/// The byte-identity corpus: a fixed script of requests over HTTP (seeded random stacks with
/// every row member the answers write, their rows, layouts, hits, animated and keyframed
/// mutations, scrolls, carousels, composed screens, the history and the live stream) whose
/// answers must stay byte for byte what `Corpus/answers.txt` records: one line per request
/// with its status, length and SHA-256 (event times, which differ from run to run, are
/// replaced by `T` first).
///
/// The script is drawn from one fixed seed (20261207): the record is of that script only.
/// `SCROLLSTACK_RECORD_ANSWERS=1` writes the record again from this build, for a change that
/// means to change answers (the diff of the record then shows which requests it touched).
final class AnswerCorpusTests: XCTestCase {
    static let seed: UInt64 = 20261207
    static let record = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Corpus/answers.txt")

    static func length(_ r: inout SplitMix64) -> JSON {
        switch Int.random(in: 0..<4, using: &r) {
        case 0: return .integer(Int64.random(in: 0...400, using: &r))
        case 1: return .number(Double(Int.random(in: 0...800, using: &r)) / 2)
        case 2: return .real(Double(Int.random(in: 1...1000, using: &r)) / 3)
        default: return .real(Double.random(in: 0...300, using: &r))
        }
    }

    static func insets(_ r: inout SplitMix64) -> JSON {
        .object(JSONObject(["top", "left", "bottom", "right"].map { ($0, length(&r)) }))
    }

    /// A row using every member a row answer writes: a controller or a view with props,
    /// sizes of each kind, content descriptions, insets, separators, flags, titles, styles.
    static func row(_ r: inout SplitMix64, _ i: Int) -> JSON {
        var members: [(String, JSON)] = [("id", .string(["row-\(i)", "r\"\(i)", "ü/\(i)", "t\t\(i)"][Int.random(in: 0..<4, using: &r)]))]
        if Bool.random(using: &r) {
            var controller: [(String, JSON)] = [("type", .string("Cell\(i % 3)"))]
            if Bool.random(using: &r) { controller.append(("instance", .string("c-\(i)"))) }
            if Bool.random(using: &r) { controller.append(("props", ["n": .integer(Int64(i)), "x": length(&r), "s": "é\n"])) }
            members.append(("controller", .object(JSONObject(controller))))
        } else {
            var view: [(String, JSON)] = [("type", "V")]
            if Bool.random(using: &r) { view.append(("props", [length(&r), "p"])) }
            members.append(("view", .object(JSONObject(view))))
        }
        switch Int.random(in: 0..<6, using: &r) {
        case 0: members.append(("content", ["aspectRatio": .real(Double(Int.random(in: 1...30, using: &r)) / 7)]))
        case 1: members.append(("size", ["vertical": ["fixed": length(&r)], "horizontal": ["fixed": length(&r)]]))
        case 2: members.append(("size", "fit"))
                members.append(("content", ["height": length(&r)]))
        case 3: members.append(("content", ["stack": "vertical", "spacing": length(&r), "padding": insets(&r),
                                            "children": [["height": length(&r)], ["height": length(&r), "width": length(&r)]]]))
        case 4: members.append(("content", ["text": .string("Hello, world \(i)"), "font": ["family": "Inter", "size": 15], "maxLines": 2]))
        default: members.append(("size", ["fixed": length(&r)]))
        }
        if Int.random(in: 0..<5, using: &r) == 0 { members.append(("hidden", true)) }
        if Bool.random(using: &r) { members.append(("insets", insets(&r))) }
        if Int.random(in: 0..<3, using: &r) == 0 {
            var separator: [(String, JSON)] = []
            if Bool.random(using: &r) { separator.append(("hidden", .bool(Bool.random(using: &r)))) }
            if Bool.random(using: &r) { separator.append(("thickness", length(&r))) }
            if Bool.random(using: &r) { separator.append(("insets", insets(&r))) }
            if Bool.random(using: &r) { separator.append(("color", "#ff0000")) }
            members.append(("separator", .object(JSONObject(separator))))
        }
        if Int.random(in: 0..<4, using: &r) == 0 { members.append(("tappable", false)) }
        if Int.random(in: 0..<4, using: &r) == 0 { members.append(("highlightable", false)) }
        if Int.random(in: 0..<4, using: &r) == 0 { members.append(("title", .string("Title \(i)"))) }
        if Int.random(in: 0..<4, using: &r) == 0 { members.append(("style", ["background": "#336699", "cornerRadius": 8])) }
        return .object(JSONObject(members))
    }

    /// The requests of the script, in order: (method, path, body).
    static func script() -> [(String, String, JSON?)] {
        var r = SplitMix64(seed: seed)
        var requests: [(String, String, JSON?)] = []
        for k in 0..<12 {
            let id = "s\(k)"
            let count = Int.random(in: 1..<24, using: &r)
            let horizontal = k % 5 == 4
            requests.append(("POST", "/v1/stacks", .object(JSONObject([
                ("id", .string(id)), ("axis", horizontal ? "horizontal" : "vertical"),
                ("viewport", ["width": length(&r), "height": .integer(Int64.random(in: 100...900, using: &r))]),
                ("spacing", length(&r)), ("contentInsets", insets(&r)),
                ("rows", .array((0..<count).map { row(&r, $0) })),
            ]))))
            let x = Int.random(in: 0..<200, using: &r), y = Int.random(in: 0..<400, using: &r)
            for path in ["", "/rows", "/rows?from=1&limit=2", "/rows?controller=Cell1", "/rows/at/0", "/layout", "/layout?content=frames",
                         "/layout?window=visible", "/hit?x=\(x)&y=\(y)"] {
                requests.append(("GET", "/v1/stacks/\(id)\(path)", nil))
            }
            let fps = [nil, 30, 60][k % 3]
            func animated(_ members: [(String, JSON)]) -> JSON {
                var all = members
                if k % 2 == 1 || fps != nil { all.append(("animation", k % 4 == 3 ? ["duration": 0.4, "damping": 0.6] : true)) }
                if let fps { all.append(("fps", .integer(Int64(fps)))) }
                return .object(JSONObject(all))
            }
            requests.append(("POST", "/v1/stacks/\(id)/rows", animated([("rows", [row(&r, 100 + k)]), ("at", k % 2 == 0 ? "top" : "bottom")])))
            requests.append(("PATCH", "/v1/stacks/\(id)/rows/at/0", animated([("hidden", .bool(k % 3 == 0)), ("insets", insets(&r))])))
            requests.append(("POST", "/v1/stacks/\(id)/rows/at/0/move", animated([("to", .integer(Int64(count / 2)))])))
            requests.append(("POST", "/v1/stacks/\(id)/scroll", animated([("to", "bottom")])))
            requests.append(("POST", "/v1/stacks/\(id)/scroll", .object(JSONObject([("to", "top"), ("dryRun", true)]))))
            requests.append(("DELETE", "/v1/stacks/\(id)/rows/at/0", k % 2 == 0 ? JSON?.none : animated([])))
            requests.append(("GET", "/v1/stacks/\(id)", nil))
            requests.append(("GET", "/v1/stacks/\(id)/events", nil))
        }
        // A carousel: paging with a page indicator and a menu, settled by flicks and selected.
        requests.append(("POST", "/v1/stacks", [
            "id": "carousel", "axis": "horizontal", "viewport": ["width": 375, "height": 300],
            "paging": ["size": ["fraction": 1]], "pageIndicator": true, "menu": ["itemSpacing": 6],
            "rows": .array((0..<5).map { i in ["id": .string("p\(i)"), "view": ["type": "Page"], "size": ["fixed": 375],
                                                "title": .string("Page \(i)")] }),
        ]))
        requests.append(("POST", "/v1/stacks/carousel/scroll/settle", ["velocity": 900, "offset": 60, "fps": 20]))
        requests.append(("POST", "/v1/stacks/carousel/menu/select", ["row": "p3"]))
        requests.append(("GET", "/v1/stacks/carousel/layout", nil))
        requests.append(("GET", "/v1/stacks/carousel", nil))
        // A composed screen: a horizontal shelf in a row of a vertical screen.
        requests.append(("POST", "/v1/stacks", [
            "id": "shelf", "axis": "horizontal", "viewport": ["width": 300, "height": 200], "spacing": 12,
            "rows": [["id": "k1", "view": ["type": "Card"], "size": ["fixed": 240]],
                     ["id": "k2", "view": ["type": "Card"], "size": ["fixed": 240]]],
        ]))
        requests.append(("POST", "/v1/stacks", [
            "id": "screen", "viewport": ["width": 375, "height": 600],
            "rows": [["id": "title", "view": ["type": "Header"], "size": ["fixed": 100]],
                     ["id": "cards", "stack": "shelf", "size": ["fixed": 224]]],
        ]))
        requests.append(("GET", "/v1/stacks/screen/layout", nil))
        requests.append(("GET", "/v1/stacks/screen/hit?x=200&y=200", nil))
        requests.append(("POST", "/v1/stacks/screen/rows", ["rows": [["id": "more", "view": ["type": "V"], "size": ["fixed": 50]]],
                                                             "at": "top", "animation": true, "fps": 30]))
        requests.append(("POST", "/v1/stacks/shelf/rows", ["rows": [["id": "k3", "view": ["type": "Card"], "size": ["fixed": 240]]],
                                                            "animation": true]))
        requests.append(("GET", "/v1/stacks/screen", nil))
        requests.append(("GET", "/v1/stacks/screen/events", nil))
        // Scrolls whose answers hold the window with the embedded stack, and dry runs with plans.
        requests.append(("POST", "/v1/stacks/screen/scroll", ["to": "bottom", "animation": true]))
        requests.append(("POST", "/v1/stacks/screen/scroll", ["to": "top", "dryRun": true, "animation": true, "fps": 20]))
        requests.append(("POST", "/v1/stacks/s1/scroll", ["to": "top", "dryRun": true, "animation": true]))
        requests.append(("POST", "/v1/stacks/carousel/scroll", ["page": 1, "dryRun": true, "animation": true, "fps": 10]))
        requests.append(("POST", "/v1/stacks/carousel/scroll", ["page": 2]))
        requests.append(("GET", "/v1/stacks/carousel/rows?from=0&limit=2", nil))
        requests.append(("GET", "/v1/stacks/screen/hit?x=10&y=10", nil))
        requests.append(("GET", "/v1/stacks/screen/hit?x=10&y=5000", nil))
        // Past plans: kept whole (an insert), derived from a recipe (a scroll), with keyframes.
        for path in ["/v1/stacks/s1/transitions/2", "/v1/stacks/s1/transitions/2?fps=24", "/v1/stacks/s3/transitions/5",
                     "/v1/stacks/s3/transitions/5?fps=12", "/v1/stacks/screen/transitions/2?fps=30", "/v1/stacks/carousel/transitions/3?fps=15"] {
            requests.append(("GET", path, nil))
        }
        return requests
    }

    /// `"time":"…"` members (when a revision was made) replaced by `"time":"T"`.
    static func normalized(_ body: [UInt8]) -> [UInt8] {
        let text = String(decoding: body, as: UTF8.self)
        let replaced = text.replacingOccurrences(of: #""time":"[0-9T:.Z-]+""#, with: #""time":"T""#, options: .regularExpression)
        return Array(replaced.utf8)
    }

    static func digest(_ bytes: [UInt8]) -> String {
        SHA256.digest(bytes).map { String(format: "%02x", $0) }.joined()
    }

    func testAnswersAreTheRecordedBytes() throws {
        print("answer corpus: seed \(Self.seed) (fixed: the record is of this script)")
        let server = try ServerHarness(service: StackService(journal: StackJournal(backend: MemoryJournal())))
        defer { server.stop() }
        // The live stream of s0, opened before its first mutation: every message the hub sends.
        let stream = try TestHTTPConnection(port: server.port, timeout: 10)
        var lines: [String] = []
        var answers: [String: [UInt8]] = [:]
        var streamOpened = false
        for (n, (method, path, body)) in Self.script().enumerated() {
            let reply = try server.request(method, path, json: body)
            let bytes = Self.normalized(reply.body)
            let line = "\(n) \(method) \(path) \(reply.status) \(bytes.count) \(Self.digest(bytes))"
            lines.append(line)
            answers[line] = bytes
            if !streamOpened, path == "/v1/stacks/s0" {
                try stream.sendRaw(Array("GET /v1/stacks/s0/events HTTP/1.1\r\nHost: x\r\nAccept: text/event-stream\r\n\r\n".utf8))
                XCTAssertEqual(try stream.readHead().status, 200)
                streamOpened = true
            }
        }
        // s0's revisions after its creation, as the stream sent them.
        let revisions = try JSON.parse(try server.request("GET", "/v1/stacks/s0").body)["revision"]?.int64Value.map(Int.init) ?? 0
        var sse: [UInt8] = []
        let deadline = Date().addingTimeInterval(10)
        while String(decoding: sse, as: UTF8.self).components(separatedBy: "\n\n").filter({ $0.hasPrefix("id: ") }).count < revisions - 1,
              Date() < deadline, let chunk = try stream.readChunk() {
            sse += chunk
        }
        stream.close()
        let messages = Self.normalized(sse)
        let streamLine = "stream /v1/stacks/s0/events \(messages.count) \(Self.digest(messages))"
        lines.append(streamLine)
        answers[streamLine] = messages
        let text = lines.joined(separator: "\n") + "\n"
        if ProcessInfo.processInfo.environment["SCROLLSTACK_RECORD_ANSWERS"] == "1" {
            try FileManager.default.createDirectory(at: Self.record.deletingLastPathComponent(), withIntermediateDirectories: true)
            try text.write(to: Self.record, atomically: true, encoding: .utf8)
            print("answer corpus: recorded \(lines.count) answers in \(Self.record.path)")
            return
        }
        let recorded = try String(contentsOf: Self.record, encoding: .utf8).split(separator: "\n").map(String.init)
        XCTAssertEqual(recorded.count, lines.count, "the script and the record differ in length")
        for (expected, line) in zip(recorded, lines) where expected != line {
            XCTFail("answer changed:\n  recorded \(expected)\n  now      \(line)\n  body: \(String(decoding: (answers[line] ?? []).prefix(3000), as: UTF8.self))")
        }
    }
}
