import ScrollStackCore
import Synchronization

/// The service's measurer: `base` for content descriptions, and for a fit row that embeds a
/// stack, that stack's content length along the host's axis, laid out as wide across as the
/// row's content (Docs/Semantics.md, "Composed screens"). The registry is attached once the
/// service exists; until then (and for a stack that is not there) the length is unknown.
///
/// The embedded stack is read under its read lock, taken while the host's lock is held:
/// down the embedding graph, as every nested read (`EmbeddedLayouts`).
final class EmbeddedStackMeasurer: ContentMeasuring {
    let base: any ContentMeasuring
    private let registry = Mutex<StackRegistry?>(nil)

    init(base: any ContentMeasuring) {
        self.base = base
    }

    func attach(_ store: StackRegistry) {
        registry.withLock { $0 = store }
    }

    func length(of content: ContentDescription, along axis: Axis, crossExtent: Double) -> Double {
        base.length(of: content, along: axis, crossExtent: crossExtent)
    }

    func frames(of content: ContentDescription, along axis: Axis, crossExtent: Double) -> ContentFrame {
        base.frames(of: content, along: axis, crossExtent: crossExtent)
    }

    func check(_ content: ContentDescription, field: String) throws(StackError) {
        try base.check(content, field: field)
    }

    func prepare(_ contents: [ContentDescription]) {
        base.prepare(contents)
    }

    var prepares: Bool { base.prepares }

    /// The embedded stack's `contentSize` along `axis` once its viewport across `axis` is
    /// `crossExtent` (its other side kept): its rows' lengths plus spacing along the same
    /// axis, its cross extent for a stack scrolling the other way. O(1) when the width is
    /// the stack's own; O(n) to re-measure its fit rows otherwise.
    func embeddedLength(of stack: String, along axis: Axis, crossExtent: Double) -> Double? {
        guard let store = registry.withLock({ $0 }), let entry = try? store.entry(stack) else { return nil }
        return try? entry.read { child, _ throws(APIError) -> Double in
            var viewport = child.settings.viewport
            viewport[axis.cross] = crossExtent
            guard viewport != child.settings.viewport else { return child.contentSize[axis] }
            var laid = child
            do throws(StackError) { _ = try laid.update(SettingsChange(viewport: viewport)) } catch { throw APIError(error) }
            return laid.contentSize[axis]
        }
    }
}
