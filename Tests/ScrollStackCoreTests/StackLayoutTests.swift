import XCTest
import ScrollStackCore

final class StackLayoutTests: XCTestCase {
    func testEmptyStack() throws {
        var stack = try ScrollStack()
        XCTAssertTrue(stack.isEmpty)
        XCTAssertEqual(stack.contentSize, Size(width: 375, height: 0))
        XCTAssertEqual(stack.layout().rows, [])
        XCTAssertEqual(stack.visibleRows, [])
        XCTAssertNil(stack.firstRow)
        XCTAssertNil(stack.hitTest(Point(x: 10, y: 10)))
        XCTAssertEqual(try stack.offset(for: .bottom), Point(x: 0, y: 0))
        let removed = stack.removeAll()
        XCTAssertEqual(removed.names, ["layoutUpdated"])
        stack.checkInvariants()
    }

    func testOneRowWithDefaultInsets() throws {
        let stack = try ScrollStack(rows: [fixedRow("a")])
        let a = try stack.layout(of: .id("a"))
        XCTAssertEqual(a.frame, Rect(x: 0, y: 0, width: 375, height: 68))
        XCTAssertEqual(a.contentFrame, Rect(x: 16, y: 12, width: 343, height: 44))
        XCTAssertNil(a.separatorFrame, "the last shown row draws no separator")
        XCTAssertEqual(a.visibility, .entire)
        XCTAssertEqual(stack.contentSize, Size(width: 375, height: 68))
        stack.checkInvariants()
    }

    func testSpacingIsNeverNextToAHiddenRow() throws {
        var stack = try ScrollStack(settings: StackSettings(spacing: 10), rows: [fixedRow("a"), fixedRow("b", hidden: true), fixedRow("c")])
        var layout = stack.layout()
        XCTAssertEqual(layout.rows.map(\.frame.minY), [0, 68, 78])
        XCTAssertEqual(layout.rows[1].frame.size.height, 0)
        XCTAssertEqual(layout.contentSize.height, 146)
        try stack.setHidden([.id("a")], true)
        try stack.setHidden([.id("b")], false)
        layout = stack.layout()
        XCTAssertEqual(layout.rows.map(\.frame.minY), [0, 0, 78], "a hidden first row collapses at 0")
        XCTAssertEqual(layout.contentSize.height, 146)
        stack.checkInvariants()
    }

    func testAllRowsHidden() throws {
        let stack = try ScrollStack(rows: ["a", "b", "c"].map { fixedRow($0, hidden: true) })
        let layout = stack.layout()
        XCTAssertEqual(layout.contentSize, Size(width: 375, height: 0))
        XCTAssertEqual(layout.rows.map(\.visibility), [.hidden, .hidden, .hidden])
        XCTAssertEqual(layout.rows.compactMap(\.separatorFrame), [])
        XCTAssertEqual(layout.rows.map(\.frame), Array(repeating: Rect(x: 0, y: 0, width: 375, height: 0), count: 3))
        XCTAssertEqual(stack.visibleRows, [])
    }

    func testHiddenLastRowMovesTheAutoHiddenSeparator() throws {
        var stack = try ScrollStack(rows: [fixedRow("a"), fixedRow("b"), fixedRow("c")])
        XCTAssertEqual(try stack.layout(of: .id("b")).separatorFrame, Rect(x: 16, y: 135, width: 359, height: 1))
        try stack.setHidden([.id("c")], true)
        XCTAssertNil(try stack.layout(of: .id("b")).separatorFrame, "b is now the last shown row")
        XCTAssertNil(try stack.layout(of: .id("c")).separatorFrame, "hidden rows draw none")
        try stack.update(SettingsChange(autoHideLastRowSeparator: false))
        XCTAssertEqual(try stack.layout(of: .id("b")).separatorFrame, Rect(x: 16, y: 135, width: 359, height: 1))
        XCTAssertNil(try stack.layout(of: .id("c")).separatorFrame)
        stack.checkInvariants()
    }

    func testSeparatorFramesOverridesAndDefaults() throws {
        var stack = try ScrollStack(rows: [fixedRow("a"), fixedRow("b"), fixedRow("c")])
        try stack.update([.id("a")], with: RowChange(separator: SeparatorOverride(thickness: 3, insets: EdgeInsets(left: 10, right: 20))))
        XCTAssertEqual(try stack.layout(of: .id("a")).separatorFrame, Rect(x: 10, y: 65, width: 345, height: 3))
        // A later default reaches rows that do not override that field only.
        try stack.update(SettingsChange(separator: SeparatorStyle(thickness: 2, insets: EdgeInsets(left: 0))))
        XCTAssertEqual(try stack.layout(of: .id("a")).separatorFrame, Rect(x: 10, y: 65, width: 345, height: 3))
        XCTAssertEqual(try stack.layout(of: .id("b")).separatorFrame, Rect(x: 0, y: 134, width: 375, height: 2))
        try stack.update([.id("b")], with: RowChange(separator: SeparatorOverride(hidden: true)))
        XCTAssertNil(try stack.layout(of: .id("b")).separatorFrame)

        // Horizontal stacks draw the line on the trailing edge, between the top and bottom insets.
        try stack.update(SettingsChange(axis: .horizontal, separator: SeparatorStyle(thickness: 1, insets: EdgeInsets(top: 5, bottom: 7))))
        let a = try stack.layout(of: .id("a"))
        XCTAssertEqual(a.frame, Rect(x: 0, y: 0, width: 76, height: 667))
        XCTAssertEqual(a.separatorFrame, Rect(x: 73, y: 0, width: 3, height: 667), "a keeps its own insets (left/right, unused here) and thickness")
        stack.checkInvariants()
    }

    func testHorizontalFramesAndContentFrames() throws {
        let stack = try ScrollStack(settings: StackSettings(axis: .horizontal, viewport: Size(width: 300, height: 100), spacing: 4),
                                    rows: [fixedRow("a", 100), fixedRow("b", 50, insets: EdgeInsets(top: 1, left: 2, bottom: 3, right: 4))])
        let layout = stack.layout()
        XCTAssertEqual(layout.rows[0].frame, Rect(x: 0, y: 0, width: 132, height: 100))
        XCTAssertEqual(layout.rows[0].contentFrame, Rect(x: 16, y: 12, width: 100, height: 76))
        XCTAssertEqual(layout.rows[1].frame, Rect(x: 136, y: 0, width: 56, height: 100))
        XCTAssertEqual(layout.rows[1].contentFrame, Rect(x: 138, y: 1, width: 50, height: 96))
        XCTAssertEqual(layout.contentSize, Size(width: 192, height: 100))
    }

    func testPerAxisSizeRuleAndAxisChangeKeepOverridesAndRemeasure() throws {
        let photo = Row(id: "photo", content: .view(ViewDescriptor(type: "Photo")), size: .fit,
                        contentDescription: .aspectRatio(2), insets: .zero, separator: SeparatorOverride(color: "#FF0000FF"))
        let gallery = Row(id: "gallery", content: .controller(ControllerDescriptor(type: "GalleryVC")),
                          size: SizeRule(vertical: .fixed(500), horizontal: .fixed(300)), insets: EdgeInsets(top: 1, left: 2, bottom: 3, right: 4))
        var stack = try ScrollStack(rows: [photo, gallery])
        XCTAssertEqual(try stack.layout(of: .id("photo")).frame.size.height, 187.5)
        XCTAssertEqual(try stack.layout(of: .id("gallery")).frame.size.height, 504)
        try stack.update(SettingsChange(axis: .horizontal))
        XCTAssertEqual(try stack.layout(of: .id("photo")).frame.size.width, 1334, "667 tall × ratio 2")
        XCTAssertEqual(try stack.layout(of: .id("gallery")).frame.size.width, 306)
        XCTAssertEqual(stack.row(id: "photo")?.separator.color, "#FF0000FF")
        XCTAssertEqual(stack.row(id: "gallery")?.insets, EdgeInsets(top: 1, left: 2, bottom: 3, right: 4))
        stack.checkInvariants()
    }
}
