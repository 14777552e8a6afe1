import JSONCodec
import ScrollStackCore
import ScrollStackTransitions

/// The nested rows of a host's transition plan (Docs/Semantics.md, "Composed screens"): each
/// planned row that embeds a stack gets `stack`, `{id, from, to}`, the embedded stack's
/// visible rows laid out in the row's content frame at the plan's start and at its end, each
/// `{id, frame}` with frames in the row's content coordinates, so that a client moving the
/// row moves them with it (and sees them re-laid out when the row changes size). One level:
/// stacks embedded deeper move with their rows. The embedded stack is the one now, read
/// under its read lock while the host's is held (down the embedding graph).
extension EmbeddedLayouts {
    /// The `stack` member of each planned row of `host` (the stack after the change) that
    /// embeds a stack, nil for the others, one entry per row of `kept` (`writePlan`'s
    /// `nested`); nil when no row of `host` embeds a stack. O(planned embedding rows × their
    /// stacks' visible rows).
    func nestedRows(of kept: TransitionPlan, host: ScrollStack) -> [JSON?]? {
        guard depth > 0, !host.embeddedStacks.isEmpty else { return nil }
        return kept.rows.map { entry -> JSON? in
            guard let id = host.embeddedStack(ofRow: entry.id),
                  let from = nestedRows(id, in: entry.from.contentFrame.size), let to = nestedRows(id, in: entry.to.contentFrame.size) else { return nil }
            return .object(JSONObject([("id", .string(id)), ("from", from), ("to", to)]))
        }
    }

    /// The visible rows of stack `id` laid out in a viewport of `size` at its own offset, in
    /// viewport coordinates; nil when it cannot be read.
    private func nestedRows(_ id: String, in size: Size) -> JSON? {
        guard let layout = stack(id, viewport: size, level: 1)?.layout else { return nil }
        return .array(layout.rows.filter { $0.visibility.isVisible }.map { row in
            .object(JSONObject([("id", .string(row.id)),
                                ("frame", ModelEncoding.rect(Self.moved(row.frame, by: Point(x: -layout.offset.x, y: -layout.offset.y))))]))
        })
    }
}
