import Foundation
import ScrollStackCore
@testable import ScrollStackService
import ScrollStackPiles
import ScrollStackTransitions
import XCTest

/// Operation records (`OperationRecord`): every stack and pile operation reads back as the
/// same operation, and a record this server cannot read is refused with its reason, never
/// a crash.
final class OperationRecordTests: XCTestCase {
    let measurer = FlexMeasurer()

    static let full: Row = {
        var row = Row(id: "full", content: .controller(ControllerDescriptor(type: "Cell", instance: "c-1", properties: #"{"n":1}"#)),
                      size: SizeRule(vertical: .fixed(44.25), horizontal: .fit),
                      contentDescription: ContentDescription(.box(width: 10, height: 30)), insets: EdgeInsets(top: 1, left: 2, bottom: 3, right: 4),
                      hidden: true, tappable: true, highlightable: false)
        row.separator.thickness = 0.5
        row.separator.color = "#FF000080"
        row.title = RowTitle(text: "Full", width: 80, selectedWidth: nil)
        row.transition = RowTransition(hide: RowLook(alpha: 0.5, translate: Point(x: -10, y: 0), scale: 0.75), show: nil)
        return row
    }()

    static let plain = Row(id: "plain", content: .view(ViewDescriptor(type: "Box", properties: nil)), size: SizeRule(vertical: .fixed(20), horizontal: .fixed(30)))

    func roundTrip(_ operation: StackOperation, file: StaticString = #filePath, line: UInt = #line) throws {
        let bytes = OperationRecord.stack(operation)
        XCTAssertEqual(bytes.first, OperationRecord.stackKind, file: file, line: line)
        let decoded = try OperationRecord.decodeStack(bytes, what: "it", measurer: measurer, titleMeasurer: nil)
        XCTAssertEqual(OperationRecord.stack(decoded), bytes, "\(operation) reads back as \(decoded)", file: file, line: line)
    }

    func testEveryStackOperationReadsBackAsItself() throws {
        var settings = StackSettings()
        settings.axis = .horizontal
        settings.spacing = 1.0 / 3
        settings.offset = Point(x: 17.125, y: 0)
        let past = try ScrollStack(settings: settings, rows: [Self.full, Self.plain], measurer: measurer, titleMeasurer: nil)
        let operations: [StackOperation] = [
            .insert([Self.full, Self.plain], at: .bottom), .insert([Self.plain], at: .top), .insert([Self.plain], at: .index(-3)),
            .insert([Self.plain], at: .before(.id("a"))), .insert([Self.plain], at: .after(.index(7))),
            .replace(index: 3, row: Self.full), .setRow(index: 0, row: Self.plain),
            .remove([.id("a"), .index(2)]), .removeAll, .move(index: 4, to: -1), .move(index: 0, to: 1 << 40),
            .setHidden([.id("é\u{2028}")], true), .setHidden([], false),
            .setInsets([.index(0)], EdgeInsets(top: 9, left: 9, bottom: 9, right: 9)), .setInsets([.index(0)], nil),
            .reload([.id("x")]), .settings(settings),
            .scroll(.offset(Point(x: 0, y: 1e15))), .scroll(.row(.id("a"), .middle)), .scroll(.top), .scroll(.bottom),
            .revert(to: 3, past), .replaceWhole(past),
        ]
        for operation in operations { try roundTrip(operation) }
        guard case .revert(3, let decoded)? = try? OperationRecord.decodeStack(OperationRecord.stack(.revert(to: 3, past)), what: "it",
                                                                                measurer: measurer, titleMeasurer: nil) else {
            return XCTFail("a revert reads back as a revert")
        }
        XCTAssertEqual(decoded.rows, past.rows)
        XCTAssertEqual(decoded.settings, past.settings)
        guard case .replaceWhole(let document)? = try? OperationRecord.decodeStack(OperationRecord.stack(.replaceWhole(past)), what: "it",
                                                                                    measurer: measurer, titleMeasurer: nil) else {
            return XCTFail("a replacement reads back as a replacement")
        }
        XCTAssertEqual(document.rows, past.rows)
        XCTAssertEqual(document.settings, past.settings)
    }

    func testAnUpdateIsJournaledAsTheRowItMade() throws {
        var stack = try ScrollStack(rows: [Self.full, Self.plain], measurer: measurer)
        var change = RowChange(hidden: false)
        change.title = .some(nil)
        let operation = StackOperation.update(index: 0, change)
        _ = try operation.apply(to: &stack)
        guard case .setRow(0, let row) = operation.journaled(after: stack) else { return XCTFail("journaled as a setRow") }
        XCTAssertEqual(row, stack.row(at: 0))
        var replayed = try ScrollStack(rows: [Self.full, Self.plain], measurer: measurer)
        _ = try StackOperation.setRow(index: 0, row: row).apply(to: &replayed)
        XCTAssertEqual(replayed.rows, stack.rows, "replaying the setRow makes the same rows")
    }

    func testEveryPileOperationReadsBackAsItself() throws {
        let views = [PileView(id: "home", content: .controller(ControllerDescriptor(type: "HomeVC", instance: nil, properties: nil))),
                     PileView(id: "more", content: .view(ViewDescriptor(type: "MoreView", properties: #"{"k":[1,null]}"#)))]
        let operations: [PileOperation] = [
            .push(views[0]), .pop, .set(views), .set([]),
            .update(id: nil, content: views[1].content), .update(id: "home", content: .controller(ControllerDescriptor(type: "T", instance: "i", properties: "{}"))),
        ]
        for operation in operations {
            let bytes = OperationRecord.pile(operation)
            XCTAssertEqual(try OperationRecord.decodePile(bytes, what: "it"), operation)
        }
    }

    func testARecordThisServerCannotReadIsRefusedWithItsReason() {
        let valid = OperationRecord.stack(.move(index: 4, to: 2))
        let cases: [([UInt8], String)] = [
            ([], "ends 1 bytes too early"),
            ([9, 1], "operation kind 9 where kind 2 was expected"),
            ([OperationRecord.stackKind, 99], "stack opcode 99 is unknown"),
            (Array(valid.dropLast()), "too early"),
            (valid + [0], "bytes follow the operation"),
            ([OperationRecord.stackKind, 1, 5], "it claims 5 rows"),
        ]
        for (bytes, reason) in cases {
            XCTAssertThrowsError(try OperationRecord.decodeStack(bytes, what: "revision 7 of s", measurer: measurer, titleMeasurer: nil), "\(bytes)") { error in
                guard let error = error as? APIError else { return XCTFail("\(error)") }
                XCTAssertEqual(error.code, .storageUnavailable)
                XCTAssertTrue(error.message.contains("revision 7 of s") && error.message.contains(reason), error.message)
            }
        }
        XCTAssertThrowsError(try OperationRecord.decodePile([OperationRecord.pileKind, 7], what: "p")) { error in
            XCTAssertTrue((error as? APIError)?.message.contains("pile opcode 7 is unknown") == true, "\(error)")
        }
    }
}
