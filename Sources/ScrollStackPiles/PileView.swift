import ScrollStackCore
import ScrollStackTransitions

/// One view of a pile: an id and what to show (a controller or a view descriptor, as a row's).
public struct PileView: Sendable, Hashable {
    public var id: String
    public var content: RowContent

    public init(id: String, content: RowContent) {
        self.id = id
        self.content = content
    }
}
