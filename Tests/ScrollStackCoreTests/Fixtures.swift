import XCTest
import ScrollStackCore

/// Shared helpers for the unit tests: rows, stacks, snapshots and assertions.
///
/// Everything lives in `Fx` so that no helper name can clash with the differential test's
/// files in the same target.
enum Fx {
    // MARK: Rows

    /// A controller row whose content is `length` long. Insets default to zero, so the row is
    /// exactly `length` long; pass `insets: nil` to follow the stack's row insets.
    static func row(
        _ id: String, _ length: Double = 50, insets: EdgeInsets? = .zero, hidden: Bool = false,
        type: String = "VC", instance: String? = nil, separator: SeparatorOverride = .none
    ) -> Row {
        Row(id: id, content: .controller(ControllerDescriptor(type: type, instance: instance)), size: .fixed(length),
            insets: insets, separator: separator, hidden: hidden)
    }

    /// A controller row that follows the stack's row insets (12/16/12/16 by default).
    static func defaultRow(_ id: String, _ length: Double = 44, hidden: Bool = false) -> Row {
        row(id, length, insets: nil, hidden: hidden)
    }

    /// A plain view row (no controller).
    static func viewRow(_ id: String, _ length: Double = 50, type: String = "Label", properties: String? = nil) -> Row {
        Row(id: id, content: .view(ViewDescriptor(type: type, properties: properties)), size: .fixed(length), insets: .zero)
    }

    /// A row measured from `content` (`fit` on both axes).
    static func fitRow(_ id: String, _ content: ContentDescription, insets: EdgeInsets? = nil) -> Row {
        Row(id: id, content: .controller(ControllerDescriptor(type: "FitVC")), size: .fit, contentDescription: content, insets: insets)
    }

    // MARK: Stacks

    /// A stack of rows `r0…r(n−1)`, each exactly `length` long (zero insets).
    static func uniform(
        _ n: Int, length: Double = 50, viewport: Size = Size(width: 200, height: 100), axis: Axis = .vertical,
        spacing: Double = 0, contentInsets: EdgeInsets = .zero, offset: Point = .zero
    ) throws -> ScrollStack {
        let settings = StackSettings(axis: axis, viewport: viewport, contentInsets: contentInsets, offset: offset, spacing: spacing)
        let stack = try ScrollStack(settings: settings, rows: (0..<n).map { row("r\($0)", length) })
        stack.checkInvariants()
        return stack
    }

    /// A stack holding `rows`, in a viewport of 200 × 100 unless told otherwise.
    static func stack(
        _ rows: [Row], viewport: Size = Size(width: 200, height: 100), axis: Axis = .vertical, spacing: Double = 0,
        autoHideLastRowSeparator: Bool = true
    ) throws -> ScrollStack {
        let settings = StackSettings(axis: axis, viewport: viewport, spacing: spacing, autoHideLastRowSeparator: autoHideLastRowSeparator)
        let stack = try ScrollStack(settings: settings, rows: rows)
        stack.checkInvariants()
        return stack
    }

    static func ids(_ stack: ScrollStack) -> [String] { stack.rows.map(\.id) }

    static func frames(_ stack: ScrollStack) -> [Rect] { stack.layout().rows.map(\.frame) }

    static func separators(_ stack: ScrollStack) -> [Rect?] { stack.layout().rows.map(\.separatorFrame) }

    // MARK: Snapshots

    /// Everything observable about a stack, to show that a failed operation changed nothing.
    struct Snapshot: Equatable {
        let settings: StackSettings
        let rows: [Row]
        let layout: StackLayout
        let visibleRows: [String]
        let contentSize: Size

        init(_ stack: ScrollStack) {
            settings = stack.settings
            rows = stack.rows
            layout = stack.layout()
            visibleRows = stack.visibleRows
            contentSize = stack.contentSize
        }
    }

    // MARK: Assertions

    /// Runs `body` on `stack`, expects a `StackError` with `code` and `field`, and checks that
    /// the stack is unchanged and still keeps its invariants.
    static func assertFails(
        _ stack: inout ScrollStack, _ code: StackError.Code, field: String?,
        file: StaticString = #filePath, line: UInt = #line,
        _ body: (inout ScrollStack) throws -> Void
    ) {
        let before = Snapshot(stack)
        do {
            try body(&stack)
            XCTFail("expected \(code) at \(field ?? "nil"), but the operation succeeded", file: file, line: line)
        } catch let error as StackError {
            XCTAssertEqual(error.code, code, "\(error)", file: file, line: line)
            XCTAssertEqual(error.field, field, "\(error)", file: file, line: line)
            XCTAssertFalse(error.message.isEmpty, file: file, line: line)
        } catch {
            XCTFail("unexpected error \(error)", file: file, line: line)
        }
        XCTAssertEqual(Snapshot(stack), before, "the failed operation changed the stack", file: file, line: line)
        stack.checkInvariants()
    }

    /// Compares visibilities, with a tolerance on partial fractions.
    static func same(_ a: Visibility, _ b: Visibility, accuracy: Double = 1e-12) -> Bool {
        switch (a, b) {
        case (.partial(let x), .partial(let y)): abs(x - y) <= accuracy
        default: a == b
        }
    }

    /// Compares events, with a tolerance on partial fractions.
    static func same(_ a: StackEvent, _ b: StackEvent) -> Bool {
        switch (a, b) {
        case let (.becameVisible(i1, x1, v1), .becameVisible(i2, x2, v2)),
             let (.becameHidden(i1, x1, v1), .becameHidden(i2, x2, v2)):
            i1 == i2 && x1 == x2 && same(v1, v2)
        default:
            a == b
        }
    }

    static func assertEvents(_ actual: [StackEvent], _ expected: [StackEvent], file: StaticString = #filePath, line: UInt = #line) {
        let equal = actual.count == expected.count && zip(actual, expected).allSatisfy { same($0, $1) }
        XCTAssertTrue(equal, "events differ:\n  actual   \(actual)\n  expected \(expected)", file: file, line: line)
    }

    static func assertVisibility(_ actual: Visibility, _ expected: Visibility, file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertTrue(same(actual, expected), "visibility \(actual), expected \(expected)", file: file, line: line)
    }
}
