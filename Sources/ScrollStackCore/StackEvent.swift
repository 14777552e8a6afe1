/// Something an operation did, in the order the original's callbacks would report it.
///
/// Within one operation: row events in the order the operation performed them, then
/// `layoutUpdated`, then `contentSizeChanged` (if the size changed), then `didScroll` (if the
/// offset changed), then the visibility events in row order.
public enum StackEvent: Sendable, Hashable {
    /// A row entered the stack; `index` is its index once the whole operation is done.
    case rowAdded(id: String, index: Int)
    /// A row left the stack; `index` is its index before the operation.
    case rowRemoved(id: String, index: Int)
    /// A row moved from one index to another.
    case rowMoved(id: String, from: Int, to: Int)
    /// A shown row was hidden.
    case rowHidden(id: String, index: Int)
    /// A hidden row was shown.
    case rowShown(id: String, index: Int)
    /// A row's length along the scroll axis changed (from a change aimed at that row).
    case rowResized(id: String, index: Int, from: Double, to: Double)
    /// A row became (more) visible: to partial or entire from anything else, or partial → entire.
    case becameVisible(id: String, index: Int, visibility: Visibility)
    /// A row became (less) visible: partial/entire → offscreen/hidden, or entire → partial.
    case becameHidden(id: String, index: Int, visibility: Visibility)
    /// The content size changed.
    case contentSizeChanged(from: Size, to: Size)
    /// Frames were recomputed; sent once by every successful operation.
    case layoutUpdated
    /// The offset changed.
    case didScroll(from: Point, to: Point)

    /// The event's name in the API.
    public var name: String {
        switch self {
        case .rowAdded: "rowAdded"
        case .rowRemoved: "rowRemoved"
        case .rowMoved: "rowMoved"
        case .rowHidden: "rowHidden"
        case .rowShown: "rowShown"
        case .rowResized: "rowResized"
        case .becameVisible: "becameVisible"
        case .becameHidden: "becameHidden"
        case .contentSizeChanged: "contentSizeChanged"
        case .layoutUpdated: "layoutUpdated"
        case .didScroll: "didScroll"
        }
    }
}

/// What an operation did.
public struct OperationResult: Sendable, Hashable {
    /// The ordered events.
    public var events: [StackEvent] = []
    /// Ids of the rows the operation touched that are still in the stack, in operation order.
    public var changed: [String] = []
    /// The rows the operation took out, with their indexes before it, in the order given.
    public var removed: [(row: Row, index: Int)] = []

    public init() {}

    /// An empty result with room for `events` events, so that a small operation's events do
    /// not grow the array one by one.
    init(reserving events: Int) { self.events.reserveCapacity(events) }

    public static func == (a: OperationResult, b: OperationResult) -> Bool {
        a.events == b.events && a.changed == b.changed
            && a.removed.map(\.row) == b.removed.map(\.row) && a.removed.map(\.index) == b.removed.map(\.index)
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(events)
        hasher.combine(changed)
    }
}
