import JSONCodec
import XCTest

/// `JSONCursor.write(_:slot:_:)` with a writer that keeps repeats (`JSONWriter.keepRepeats`):
/// a slot replays the text kept for its last key, and only for that key.
final class JSONTextMemoTests: XCTestCase {
    /// Writes `values` as an array, each through slot `index % slots` keyed by its bits (as a
    /// number, or with `asText`, as a string of it repeated), counting how often `body` ran.
    func written(_ values: [Double], slots: Int, keep: Bool = true, asText: ((Double) -> String)? = nil, formatted: inout Int) -> String {
        var w = JSONWriter(capacity: 16)
        if keep { w.keepRepeats(slots: slots) }
        w.beginArray()
        for (index, value) in values.enumerated() {
            w.write(room: 1024) { c in
                c.write(value.bitPattern, slot: index % slots) { c in
                    formatted += 1
                    if let asText { c.string(asText(value)) } else { c.number(value) }
                }
            }
        }
        w.endArray()
        return String(decoding: w.take(), as: UTF8.self)
    }

    func testASlotReplaysOnlyItsLastKey() {
        var formatted = 0
        let values: [Double] = [375, 0.5, 375, 0.5, 375, 1.25, 0.1, 1.25, -0.0, 0.0, 0.0, 1e300, 1e300]
        let text = written(values, slots: 2, formatted: &formatted)
        var plain = JSONWriter(capacity: 16)
        plain.value(.array(values.map { .number($0) }))
        XCTAssertEqual(text, String(decoding: plain.take(), as: UTF8.self), "the same text as written without the memo")
        // Slot 0: 375, 375, 375, 0.1, -0.0, 0.0, 1e300 (7 values, 5 formatted: -0.0 and 0.0 differ in bits).
        // Slot 1: 0.5, 0.5, 1.25, 1.25, 0.0, 1e300 (6 values, 4 formatted).
        XCTAssertEqual(formatted, 9, "repeats in a slot are copied, other values formatted")
    }

    func testATextLongerThanTheRoomIsWrittenButNotKept() {
        var formatted = 0
        let values: [Double] = [7, 7, 12, 12]
        // 7 as 127 characters (129 bytes with its quotes, one past the room), 12 as 126 (128 bytes).
        let asText = { (value: Double) in String(repeating: "x", count: value == 7 ? 127 : 126) }
        let text = written(values, slots: 1, asText: asText, formatted: &formatted)
        XCTAssertEqual(JSONTextMemo.room, 128)
        var plain = JSONWriter(capacity: 16)
        plain.value(.array(values.map { .string(asText($0)) }))
        XCTAssertEqual(text, String(decoding: plain.take(), as: UTF8.self))
        XCTAssertEqual(formatted, 3, "the 129-byte text is written each time, the 128-byte one once")
    }

    func testAWriterWithoutAMemoWritesEveryTime() {
        var formatted = 0
        let text = written([375, 375, 375], slots: 1, keep: false, formatted: &formatted)
        XCTAssertEqual(text, "[375,375,375]")
        XCTAssertEqual(formatted, 3)
    }

    /// A key of four words replays only when all four are the key last kept; texts of every
    /// length up to the room (copied by words, or whole) come back byte for byte.
    func testAFourWordKeyReplaysOnlyWhenEveryWordMatches() {
        var w = JSONWriter(capacity: 16)
        w.keepRepeats(slots: 1)
        var formatted = 0
        let keys: [SIMD4<UInt64>] = [SIMD4(1, 2, 3, 4), SIMD4(1, 2, 3, 4), SIMD4(1, 2, 3, 5), SIMD4(9, 2, 3, 5), SIMD4(9, 2, 3, 5)]
        var expected = "["
        w.beginArray()
        for (index, key) in keys.enumerated() {
            let text = String(repeating: "k", count: [3, 20, 70, 40, 100][index])  // a replay shows the first text
            let shown = String(repeating: "k", count: [3, 3, 70, 40, 40][index])
            expected += (index == 0 ? "" : ",") + "\"" + shown + "\""
            w.write(room: 1024) { c in
                c.write(key, slot: 0) { c in
                    formatted += 1
                    c.string(text)
                }
            }
        }
        w.endArray()
        XCTAssertEqual(String(decoding: w.take(), as: UTF8.self), expected + "]", "a replayed key gives its first text")
        XCTAssertEqual(formatted, 3, "the keys change twice")
    }
}
