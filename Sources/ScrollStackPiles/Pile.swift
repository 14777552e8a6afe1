import ScrollStackCore
import ScrollStackTransitions

/// Pile's view stack: views pushed and popped between leading, active and trailing metrics; the
/// last view is the active one, the only one on screen at rest.
///
/// Follows Pile's code (`PileView.swift`) where its README differs: push moves the active view
/// active → trailing and the new one leading → active; pop moves the top view active →
/// **leading** and the one below trailing → active; `set` and `update` apply at once in Pile.
public struct Pile: Sendable, Hashable {
    public var bounds: Rect
    public var metrics: PileMetrics
    public var animation: AnimationTiming
    public private(set) var views: [PileView]

    public init(bounds: Rect, metrics: PileMetrics = PileMetrics(), animation: AnimationTiming = .pile, views: [PileView] = []) throws(PileError) {
        self.bounds = bounds
        self.metrics = metrics
        self.animation = animation
        self.views = []
        try Self.checkIDs(views, field: "views")
        self.views = views
    }

    public var active: PileView? { views.last }

    /// Whether any metric has a 3D transform: then every view state carries its matrix.
    public var hasTransforms: Bool { !metrics.leading.transform.isEmpty || !metrics.active.transform.isEmpty || !metrics.trailing.transform.isEmpty }

    /// A view's state in `metric`'s position within the bounds.
    public func state(_ metric: PileMetric) -> PileViewState { metric.state(in: bounds, matrix: hasTransforms) }

    /// Pushes `view` on top. O(n) to check its id.
    ///
    /// - Throws: `duplicateID` when a view of the pile has its id.
    public mutating func push(_ view: PileView) throws(PileError) -> PileChange {
        guard !views.contains(where: { $0.id == view.id }) else {
            throw PileError(kind: .duplicateID, message: "a view with the id \"\(view.id)\" is already in the pile", field: "id")
        }
        var change = PileChange()
        let previous = views.last
        if let previous {
            change.motions.append(PileMotion(id: previous.id, role: .exit, removed: false,
                                             from: state(metrics.active), to: state(metrics.trailing)))
        }
        views.append(view)
        change.motions.append(PileMotion(id: view.id, role: .enter, removed: false,
                                         from: state(metrics.leading), to: state(metrics.active)))
        change.events = [.viewPushed(id: view.id, index: views.count - 1), .activeChanged(from: previous?.id, to: view.id)]
        return change
    }

    /// Pops the top view: it goes active → leading and leaves; the one below comes trailing →
    /// active. O(1).
    ///
    /// - Throws: `empty` with no views; `lastView` with one (Pile never pops its last view).
    public mutating func pop() throws(PileError) -> PileChange {
        guard !views.isEmpty else { throw PileError(kind: .empty, message: "the pile has no view to pop", field: nil) }
        guard views.count > 1 else {
            throw PileError(kind: .lastView, message: "the pile keeps its last view (as Pile does): pop needs at least two", field: nil)
        }
        let top = views.removeLast()
        let below = views[views.count - 1]
        var change = PileChange()
        change.motions = [
            PileMotion(id: top.id, role: .exit, removed: true, from: state(metrics.active), to: state(metrics.leading)),
            PileMotion(id: below.id, role: .enter, removed: false, from: state(metrics.trailing), to: state(metrics.active)),
        ]
        change.events = [.viewPopped(id: top.id, index: views.count), .activeChanged(from: top.id, to: below.id)]
        return change
    }

    /// Replaces every view. When the top view changes, its motion is a push's: the old one
    /// active → trailing (leaving), the new one leading → active. O(n).
    ///
    /// - Throws: `duplicateID` naming `views[i].id`.
    public mutating func set(_ new: [PileView]) throws(PileError) -> PileChange {
        try Self.checkIDs(new, field: "views")
        let previous = views.last
        views = new
        var change = PileChange()
        change.events = [.viewsSet(count: new.count)]
        if previous?.id != new.last?.id {
            if let previous {
                change.motions.append(PileMotion(id: previous.id, role: .exit, removed: !new.contains { $0.id == previous.id },
                                                 from: state(metrics.active), to: state(metrics.trailing)))
            }
            if let top = new.last {
                change.motions.append(PileMotion(id: top.id, role: .enter, removed: false,
                                                 from: state(metrics.leading), to: state(metrics.active)))
            }
            change.events.append(.activeChanged(from: previous?.id, to: new.last?.id))
        }
        return change
    }

    /// Changes the descriptor of the view `id` (default: the active one) in place; nothing
    /// moves. O(n).
    ///
    /// - Throws: `empty` when no id is given and the pile is empty; `unknownView` naming `id`.
    public mutating func update(_ id: String?, content: RowContent) throws(PileError) -> PileChange {
        let index: Int
        if let id {
            guard let found = views.firstIndex(where: { $0.id == id }) else {
                throw PileError(kind: .unknownView, message: "no view of the pile has the id \"\(id)\"", field: "id")
            }
            index = found
        } else {
            guard !views.isEmpty else { throw PileError(kind: .empty, message: "the pile has no active view to update", field: nil) }
            index = views.count - 1
        }
        views[index].content = content
        return PileChange(events: [.viewUpdated(id: views[index].id, index: index)], motions: [])
    }

    static func checkIDs(_ views: [PileView], field: String) throws(PileError) {
        var seen: [String: Int] = [:]
        for (i, view) in views.enumerated() {
            if let first = seen[view.id] {
                throw PileError(kind: .duplicateID, message: "the id \"\(view.id)\" is used by \(field)[\(first)] too", field: "\(field)[\(i)].id")
            }
            seen[view.id] = i
        }
    }
}
