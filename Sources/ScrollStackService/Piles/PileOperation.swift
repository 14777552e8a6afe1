import ScrollStackCore
import ScrollStackPiles
import ScrollStackTransitions

/// One change to a pile, resolved as `StackOperation` is (generated view ids included).
enum PileOperation: Sendable, Equatable {
    case push(PileView)
    case pop
    case set([PileView])
    /// The descriptor of view `id` (nil: the active view) becomes `content`.
    case update(id: String?, content: RowContent)

    func apply(to pile: inout Pile) throws(PileError) -> PileChange {
        switch self {
        case .push(let view): try pile.push(view)
        case .pop: try pile.pop()
        case .set(let views): try pile.set(views)
        case .update(let id, let content): try pile.update(id, content: content)
        }
    }
}
