import Jansson
import XCTest

/// `JSONCursor.write(_:slot:in:_:)`: a slot replays the text kept for its last key, and only
/// for that key.
final class JSONTextMemoTests: XCTestCase {
    /// Writes `values` as an array, each number through slot `index % slots` keyed by its bits,
    /// counting how often the formatting ran.
    func written(_ values: [Double], memo: JSONTextMemo, slots: Int, formatted: inout Int) -> String {
        var w = JSONWriter(capacity: 16)
        w.beginArray()
        for (index, value) in values.enumerated() {
            w.write(room: JSONCursor.numberRoom + 1) { c in
                c.write(value.bitPattern, slot: index % slots, in: memo) { c in
                    formatted += 1
                    c.number(value)
                }
            }
        }
        w.endArray()
        return String(decoding: w.take(), as: UTF8.self)
    }

    func testASlotReplaysOnlyItsLastKey() {
        let memo = JSONTextMemo(slots: 2)
        var formatted = 0
        let values: [Double] = [375, 0.5, 375, 0.5, 375, 1.25, 0.1, 1.25, -0.0, 0.0, 0.0, 1e300, 1e300]
        let text = written(values, memo: memo, slots: 2, formatted: &formatted)
        var plain = JSONWriter(capacity: 16)
        plain.value(.array(values.map { .number($0) }))
        XCTAssertEqual(text, String(decoding: plain.take(), as: UTF8.self), "the same text as written without the memo")
        // Slot 0: 375, 375, 375, 0.1, -0.0, 0.0, 1e300 (7 values, 5 formatted: -0.0 and 0.0 differ in bits).
        // Slot 1: 0.5, 0.5, 1.25, 1.25, 0.0, 1e300 (6 values, 4 formatted).
        XCTAssertEqual(formatted, 9, "repeats in a slot are copied, other values formatted")
    }

    func testATextLongerThanTheRoomIsWrittenButNotKept() {
        let memo = JSONTextMemo(slots: 1, room: 3)
        XCTAssertEqual(memo.room, 16, "a slot holds at least 16 bytes")
        var formatted = 0
        let values: [Double] = [1.23456789012345e200, 1.23456789012345e200, 12, 12]
        let text = written(values, memo: memo, slots: 1, formatted: &formatted)
        var plain = JSONWriter(capacity: 16)
        plain.value(.array(values.map { .number($0) }))
        XCTAssertEqual(text, String(decoding: plain.take(), as: UTF8.self))
        XCTAssertEqual(formatted, 3, "the 20-byte real is formatted each time, 12 once")
    }
}
