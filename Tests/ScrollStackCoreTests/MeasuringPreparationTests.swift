import ScrollStackCore
import Synchronization
import XCTest

/// The stack tells the measurer what a batch of new rows is about to measure
/// (`ContentMeasuring.prepare`): the text nodes of its fit rows, every level of their groups,
/// and nothing of fixed rows or rows that embed a stack; with an engine that measures one text
/// at a time, or for a new width (whose text was shaped when its rows came), nothing.
final class MeasuringPreparationTests: XCTestCase {
    /// Text measured as 7 points a character on one line of 10, recording what it is given to prepare.
    final class RecordingText: TextMeasuring {
        let parallelism: Int
        private let prepared = Mutex<[[String]]>([])

        init(parallelism: Int) { self.parallelism = parallelism }

        var batches: [[String]] { prepared.withLock { $0 } }

        func lines(of text: TextContent, width: Double?) -> TextLines {
            TextLines(lineHeight: 10, widths: [7 * Double(text.text.count)])
        }

        func unavailable(_ font: FontRequest) -> String? { nil }

        func prepare(_ texts: [TextContent]) {
            prepared.withLock { $0.append(texts.map(\.text)) }
        }
    }

    func text(_ s: String) -> ContentDescription { .text(TextContent(s, font: FontRequest(family: "Any", size: 10))) }

    func rows(_ prefix: String) -> [Row] {
        var embedding = Row(id: "\(prefix)-embeds", content: .controller(ControllerDescriptor(type: "Feed")), size: .fit,
                            contentDescription: text("\(prefix) inside an embedded stack"))
        embedding.stack = "other"
        return [
            Row(id: "\(prefix)-a", content: .controller(ControllerDescriptor(type: "Label")), size: .fit, contentDescription: text("\(prefix) a")),
            Row(id: "\(prefix)-fixed", content: .controller(ControllerDescriptor(type: "Label")), size: .fixed(44),
                contentDescription: text("\(prefix) fixed")),
            Row(id: "\(prefix)-group", content: .controller(ControllerDescriptor(type: "Card")), size: .fit,
                contentDescription: .stack(.vertical, [text("\(prefix) title"), .box(height: 4), .stack(.horizontal, [text("\(prefix) detail")])])),
            Row(id: "\(prefix)-box", content: .controller(ControllerDescriptor(type: "Spacer")), size: .fit, contentDescription: .box(height: 8)),
            embedding,
        ]
    }

    func expected(_ prefix: String) -> [String] { ["\(prefix) a", "\(prefix) title", "\(prefix) detail"] }

    func testBatchesPrepareTheTextsOfTheirFitRows() throws {
        let recording = RecordingText(parallelism: 2)
        let measurer = FlexMeasurer(text: recording)
        var stack = try ScrollStack(rows: rows("made"), measurer: measurer)
        XCTAssertEqual(recording.batches.last, expected("made"), "a stack made from rows")

        _ = try stack.insert(rows("inserted"))
        XCTAssertEqual(recording.batches.last, expected("inserted"), "rows inserted together")

        _ = try stack.insert(RowBatch(rows("batch")))
        XCTAssertEqual(recording.batches.last, expected("batch"), "a row batch")

        // A new width re-measures rows whose text was shaped when they came: nothing ahead.
        let before = recording.batches.count
        _ = try stack.update(SettingsChange(viewport: Size(width: 200, height: 600)))
        XCTAssertEqual(recording.batches.count, before)

        var builder = try ScrollStackBuilder(measurer: measurer)
        for row in rows("built") { try builder.append(row) }
        _ = try builder.build()
        XCTAssertEqual(recording.batches.last, expected("built"), "a stack built row by row")
    }

    func testAnEngineOfOneThreadIsNotAskedAndLengthsAreTheSame() throws {
        let serial = RecordingText(parallelism: 1)
        let parallel = RecordingText(parallelism: 2)
        let one = try ScrollStack(rows: rows("r"), measurer: FlexMeasurer(text: serial))
        let two = try ScrollStack(rows: rows("r"), measurer: FlexMeasurer(text: parallel))
        XCTAssertEqual(serial.batches, [], "nothing gathered for an engine of one thread")
        XCTAssertEqual(parallel.batches.count, 1)
        XCTAssertEqual(one.layout(offset: nil).rows.map(\.frame), two.layout(offset: nil).rows.map(\.frame))
    }

    func testASingleRowIsMeasuredWithoutPreparing() throws {
        let recording = RecordingText(parallelism: 2)
        var stack = try ScrollStack(rows: [], measurer: FlexMeasurer(text: recording))
        _ = try stack.insert([rows("one")[0]])
        XCTAssertEqual(recording.batches, [])
    }
}
