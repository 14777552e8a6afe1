import XCTest
import ScrollStackCore

/// Stack settings: defaults, axis and viewport changes, default insets and separators,
/// validation (Docs/Semantics.md, "Stack" and "Operations": stack settings).
final class StackSettingsTests: XCTestCase {

    func testDefaultsMatchTheSpec() {
        let settings = StackSettings()
        XCTAssertEqual(settings.axis, .vertical)
        XCTAssertEqual(settings.viewport, Size(width: 375, height: 667))
        XCTAssertEqual(settings.contentInsets, EdgeInsets(top: 0, left: 0, bottom: 0, right: 0))
        XCTAssertEqual(settings.offset, Point(x: 0, y: 0))
        XCTAssertEqual(settings.spacing, 0)
        XCTAssertEqual(settings.rowInsets, EdgeInsets(top: 12, left: 16, bottom: 12, right: 16))
        XCTAssertEqual(settings.separator.hidden, false)
        XCTAssertEqual(settings.separator.thickness, 1)
        XCTAssertEqual(settings.separator.insets, EdgeInsets(top: 0, left: 16, bottom: 0, right: 0))
        XCTAssertEqual(settings.separator.color, "#3C3C4349")
        XCTAssertEqual(settings.autoHideLastRowSeparator, true)
        XCTAssertEqual(try ScrollStack().settings, settings)
    }

    func testColourNormalization() {
        XCTAssertEqual(SeparatorStyle.normalizedColor("#3c3c43"), "#3C3C43FF")
        XCTAssertEqual(SeparatorStyle.normalizedColor("#3C3C4349"), "#3C3C4349")
        XCTAssertEqual(SeparatorStyle.normalizedColor("#abcdef12"), "#ABCDEF12")
        XCTAssertNil(SeparatorStyle.normalizedColor("3C3C43"))
        XCTAssertNil(SeparatorStyle.normalizedColor("#GGGGGG"))
        XCTAssertNil(SeparatorStyle.normalizedColor("#12345"))
        XCTAssertNil(SeparatorStyle.normalizedColor("#1234567"))
        XCTAssertNil(SeparatorStyle.normalizedColor("#123456789"))
        XCTAssertNil(SeparatorStyle.normalizedColor(""))
        XCTAssertNil(SeparatorStyle.normalizedColor("#"))
    }

    func testSeparatorOverrideAppliesFieldByField() {
        let base = SeparatorStyle.standard
        XCTAssertEqual(base.applying(.none), base)
        let all = SeparatorOverride(hidden: true, thickness: 4, insets: EdgeInsets(top: 1, left: 2, bottom: 3, right: 4), color: "#00000000")
        XCTAssertEqual(base.applying(all), SeparatorStyle(hidden: true, thickness: 4, insets: EdgeInsets(top: 1, left: 2, bottom: 3, right: 4), color: "#00000000"))
        XCTAssertEqual(base.applying(SeparatorOverride(thickness: 4)), SeparatorStyle(thickness: 4))
        XCTAssertTrue(SeparatorOverride.none.isEmpty)
        XCTAssertFalse(SeparatorOverride(hidden: false).isEmpty)
    }

    // MARK: Axis

    /// f: fit, aspect ratio 2, default insets; g: fixed 100 with its own insets and separator overrides.
    func axisFixture() throws -> ScrollStack {
        let g = Row(id: "g", content: .controller(ControllerDescriptor(type: "VC")), size: .fixed(100),
                    insets: EdgeInsets(top: 1, left: 2, bottom: 3, right: 4),
                    separator: SeparatorOverride(thickness: 3, insets: EdgeInsets(top: 5, left: 0, bottom: 6, right: 0)))
        let stack = try ScrollStack(settings: StackSettings(autoHideLastRowSeparator: false),
                                    rows: [Fx.fitRow("f", .aspectRatio(2)), g])
        stack.checkInvariants()
        return stack
    }

    func testAxisChangeKeepsRowSettingsAndRemeasuresFitRows() throws {
        var stack = try axisFixture()
        let vertical = stack.layout()
        // f: 375 − 32 = 343 wide → 171.5 tall, + 24 = 195.5; g: 1 + 100 + 3 = 104.
        XCTAssertEqual(vertical.rows.map(\.frame), [
            Rect(x: 0, y: 0, width: 375, height: 195.5), Rect(x: 0, y: 195.5, width: 375, height: 104),
        ])
        XCTAssertEqual(vertical.rows.map(\.contentFrame), [
            Rect(x: 16, y: 12, width: 343, height: 171.5), Rect(x: 2, y: 196.5, width: 369, height: 100),
        ])
        XCTAssertEqual(vertical.rows.map(\.separatorFrame), [
            Rect(x: 16, y: 194.5, width: 359, height: 1), Rect(x: 0, y: 296.5, width: 375, height: 3),
        ])
        XCTAssertEqual(stack.contentSize, Size(width: 375, height: 299.5))

        let toHorizontal = try stack.update(SettingsChange(axis: .horizontal))
        stack.checkInvariants()
        // f: 667 − 24 = 643 tall → 1286 wide, + 32 = 1318; g: 2 + 100 + 4 = 106.
        Fx.assertEvents(toHorizontal.events, [
            .layoutUpdated,
            .contentSizeChanged(from: Size(width: 375, height: 299.5), to: Size(width: 1424, height: 667)),
            .becameHidden(id: "f", index: 0, visibility: .partial(fraction: 375.0 / 1318.0)),
            .becameHidden(id: "g", index: 1, visibility: .offscreen),
        ])
        let horizontal = stack.layout()
        XCTAssertEqual(horizontal.axis, .horizontal)
        XCTAssertEqual(horizontal.rows.map(\.frame), [
            Rect(x: 0, y: 0, width: 1318, height: 667), Rect(x: 1318, y: 0, width: 106, height: 667),
        ])
        XCTAssertEqual(horizontal.rows.map(\.contentFrame), [
            Rect(x: 16, y: 12, width: 1286, height: 643), Rect(x: 1320, y: 1, width: 100, height: 663),
        ])
        XCTAssertEqual(horizontal.rows.map(\.separatorFrame), [
            Rect(x: 1317, y: 0, width: 1, height: 667), Rect(x: 1421, y: 5, width: 3, height: 656),
        ])
        XCTAssertEqual(stack.row(id: "g")?.insets, EdgeInsets(top: 1, left: 2, bottom: 3, right: 4))
        XCTAssertEqual(stack.row(id: "g")?.separator,
                       SeparatorOverride(thickness: 3, insets: EdgeInsets(top: 5, left: 0, bottom: 6, right: 0)))
        XCTAssertEqual(stack.scrollRange, 0...1049)

        let back = try stack.update(SettingsChange(axis: .vertical))
        stack.checkInvariants()
        XCTAssertEqual(back.events, [
            .layoutUpdated,
            .contentSizeChanged(from: Size(width: 1424, height: 667), to: Size(width: 375, height: 299.5)),
            .becameVisible(id: "f", index: 0, visibility: .entire),
            .becameVisible(id: "g", index: 1, visibility: .entire),
        ])
        XCTAssertEqual(stack.layout().rows, vertical.rows)
    }

    func testAxisChangeInASquareViewportStillRemeasures() throws {
        // The cross extent is 400 on both axes, so only the axis itself says the lengths change.
        let perAxis = Row(id: "p", content: .view(ViewDescriptor(type: "V")),
                          size: SizeRule(vertical: .fixed(50), horizontal: .fixed(30)), insets: EdgeInsets(top: 1, left: 2, bottom: 3, right: 4))
        var stack = try ScrollStack(settings: StackSettings(viewport: Size(width: 400, height: 400)),
                                    rows: [Fx.fitRow("f", .aspectRatio(2)), perAxis])
        // Vertical: f 368 wide → 184 + 24 = 208; p 50 + 4 = 54.
        XCTAssertEqual(Fx.frames(stack), [
            Rect(x: 0, y: 0, width: 400, height: 208), Rect(x: 0, y: 208, width: 400, height: 54),
        ])
        let result = try stack.update(SettingsChange(axis: .horizontal))
        stack.checkInvariants()
        // Horizontal: f 376 tall → 752 + 32 = 784; p 30 + 6 = 36.
        XCTAssertEqual(Fx.frames(stack), [
            Rect(x: 0, y: 0, width: 784, height: 400), Rect(x: 784, y: 0, width: 36, height: 400),
        ])
        Fx.assertEvents(result.events, [
            .layoutUpdated,
            .contentSizeChanged(from: Size(width: 400, height: 262), to: Size(width: 820, height: 400)),
            .becameHidden(id: "f", index: 0, visibility: .partial(fraction: 400.0 / 784.0)),
            .becameHidden(id: "p", index: 1, visibility: .offscreen),
        ])
    }

    func testANewCrossExtentRemeasuresFitRows() throws {
        var stack = try axisFixture()
        let narrower = try stack.update(SettingsChange(viewport: Size(width: 215, height: 667)))
        stack.checkInvariants()
        // f: 215 − 32 = 183 → 91.5, + 24 = 115.5.
        XCTAssertEqual(narrower.events, [
            .layoutUpdated,
            .contentSizeChanged(from: Size(width: 375, height: 299.5), to: Size(width: 215, height: 219.5)),
        ], "no rowResized for stack-wide changes")
        XCTAssertEqual(Fx.frames(stack), [
            Rect(x: 0, y: 0, width: 215, height: 115.5), Rect(x: 0, y: 115.5, width: 215, height: 104),
        ])
        XCTAssertEqual(try stack.layout(of: .id("g")).contentFrame, Rect(x: 2, y: 116.5, width: 209, height: 100))

        // The main extent alone changes no length, only what shows.
        let shorter = try stack.update(SettingsChange(viewport: Size(width: 215, height: 200)))
        stack.checkInvariants()
        Fx.assertEvents(shorter.events, [
            .layoutUpdated, .becameHidden(id: "g", index: 1, visibility: .partial(fraction: 84.5 / 104)),
        ])

        // Horizontal: the cross extent is the height.
        var horizontal = try axisFixture()
        try horizontal.update(SettingsChange(axis: .horizontal, viewport: Size(width: 1000, height: 300)))
        horizontal.checkInvariants()
        // f: 300 − 24 = 276 → 552, + 32 = 584; g: 106.
        XCTAssertEqual(Fx.frames(horizontal), [
            Rect(x: 0, y: 0, width: 584, height: 300), Rect(x: 584, y: 0, width: 106, height: 300),
        ])
        XCTAssertEqual(horizontal.contentSize, Size(width: 690, height: 300))
        XCTAssertEqual(horizontal.visibleRows, ["f", "g"])
    }

    func testNewDefaultInsetsRemeasureRowsThatFollowThem() throws {
        var stack = try axisFixture()
        let result = try stack.update(SettingsChange(rowInsets: .zero))
        stack.checkInvariants()
        // f: 375 wide → 187.5; g keeps its own insets: 104.
        XCTAssertEqual(result.events, [
            .layoutUpdated,
            .contentSizeChanged(from: Size(width: 375, height: 299.5), to: Size(width: 375, height: 291.5)),
        ])
        XCTAssertEqual(Fx.frames(stack), [
            Rect(x: 0, y: 0, width: 375, height: 187.5), Rect(x: 0, y: 187.5, width: 375, height: 104),
        ])
        XCTAssertEqual(try stack.layout(of: .id("f")).contentFrame, Rect(x: 0, y: 0, width: 375, height: 187.5))
    }

    func testSpacingAndOffsetChanges() throws {
        var stack = try axisFixture()
        let spaced = try stack.update(SettingsChange(spacing: 10))
        stack.checkInvariants()
        XCTAssertEqual(spaced.events, [
            .layoutUpdated,
            .contentSizeChanged(from: Size(width: 375, height: 299.5), to: Size(width: 375, height: 309.5)),
        ])
        XCTAssertEqual(try stack.layout(of: .id("g")).frame, Rect(x: 0, y: 205.5, width: 375, height: 104))

        let scrolled = try stack.update(SettingsChange(offset: Point(x: 0, y: 100)))
        stack.checkInvariants()
        Fx.assertEvents(scrolled.events, [
            .layoutUpdated, .didScroll(from: .zero, to: Point(x: 0, y: 100)),
            .becameHidden(id: "f", index: 0, visibility: .partial(fraction: 95.5 / 195.5)),
        ])
        XCTAssertEqual(stack.settings.offset, Point(x: 0, y: 100))

        let insets = try stack.update(SettingsChange(contentInsets: EdgeInsets(top: 10, left: 0, bottom: 10, right: 0)))
        stack.checkInvariants()
        XCTAssertEqual(insets.events, [.layoutUpdated], "content insets move nothing")
        XCTAssertEqual(stack.scrollRange, -10 ... -10, "309.5 + 10 − 667 is below −10")
    }

    // MARK: Validation

    func testInvalidSettingsChangeNothing() throws {
        var stack = try axisFixture()
        func bad(_ field: String, line: UInt = #line, _ change: SettingsChange) {
            Fx.assertFails(&stack, .invalidValue, field: field, line: line) { try $0.update(change) }
        }
        bad("viewport.width", SettingsChange(viewport: Size(width: -1, height: 100)))
        bad("viewport.height", SettingsChange(viewport: Size(width: 100, height: .nan)))
        bad("viewport.height", SettingsChange(viewport: Size(width: 100, height: 1e9 + 1)))
        bad("contentInsets.left", SettingsChange(contentInsets: EdgeInsets(left: -1)))
        bad("contentInsets.bottom", SettingsChange(contentInsets: EdgeInsets(bottom: .infinity)))
        bad("offset.x", SettingsChange(offset: Point(x: .infinity, y: 0)))
        bad("offset.y", SettingsChange(offset: Point(x: 0, y: 2e15)))
        bad("spacing", SettingsChange(spacing: .nan))
        bad("spacing", SettingsChange(spacing: -0.5))
        bad("rowInsets.top", SettingsChange(rowInsets: EdgeInsets(top: .nan)))
        bad("rowInsets.right", SettingsChange(rowInsets: EdgeInsets(right: -2)))
        bad("separator.color", SettingsChange(separator: SeparatorStyle(color: "red")))
        bad("separator.color", SettingsChange(separator: SeparatorStyle(color: "#3C3C434")))
        bad("separator.color", SettingsChange(separator: SeparatorStyle(color: "#3C3C4349FF")))
        bad("separator.thickness", SettingsChange(separator: SeparatorStyle(thickness: -1)))
        bad("separator.insets.right", SettingsChange(separator: SeparatorStyle(insets: EdgeInsets(right: .nan))))
        // All fields of one change apply together, or none does.
        bad("spacing", SettingsChange(axis: .horizontal, viewport: Size(width: 300, height: 300), spacing: -1))
        bad("separator.color", SettingsChange(offset: Point(x: 0, y: 50), separator: SeparatorStyle(color: "#12")))
        XCTAssertEqual(stack.settings.axis, .vertical)
        XCTAssertEqual(stack.settings.offset, .zero)

        // 10⁹ is accepted.
        try stack.update(SettingsChange(viewport: Size(width: 375, height: 1e9)))
        stack.checkInvariants()
        XCTAssertEqual(stack.settings.viewport.height, 1e9)
    }

    func testInvalidInitialState() {
        func fails(_ code: StackError.Code, _ field: String, line: UInt = #line, _ make: () throws -> ScrollStack) {
            XCTAssertThrowsError(try make(), line: line) { error in
                XCTAssertEqual((error as? StackError)?.code, code, line: line)
                XCTAssertEqual((error as? StackError)?.field, field, line: line)
            }
        }
        fails(.invalidValue, "spacing") { try ScrollStack(settings: StackSettings(spacing: -1)) }
        fails(.invalidValue, "viewport.width") { try ScrollStack(settings: StackSettings(viewport: Size(width: .nan, height: 1))) }
        fails(.duplicateID, "rows[1].id") { try ScrollStack(rows: [Fx.row("x"), Fx.row("x")]) }
        fails(.invalidValue, "rows[0].size.fixed") { try ScrollStack(rows: [Fx.row("x", -1)]) }
    }
}
