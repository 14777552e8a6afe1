import ScrollStackCore
import ScrollStackRender

/// What changed between two full layouts of a stack, rows matched by id: rows only in the
/// after layout are inserted, rows only in the before one removed; a row in both has moved
/// when its index differs and is resized when its frame's size differs (both may hold).
///
/// `marked(_:)` outlines those rows in a two-panel picture (before | after) of `PictureScene`.
///
/// - Complexity: O(n) in the rows of both layouts (hashing their ids).
struct LayoutDiff {
    struct Move {
        let id: String
        let from: Int
        let to: Int
    }

    struct Resize {
        let id: String
        let before: Rect
        let after: Rect
    }

    /// A change a row's outline shows, with its colour.
    enum Change: String, CaseIterable {
        case inserted, removed, moved, resized

        var color: RGBA {
            switch self {
            case .inserted: RGBA(red: 0x00, green: 0xC8, blue: 0x00)
            case .removed: RGBA(red: 0xE0, green: 0x00, blue: 0x00)
            case .moved: RGBA(red: 0x00, green: 0x40, blue: 0xFF)
            case .resized: RGBA(red: 0xFF, green: 0x8C, blue: 0x00)
            }
        }
    }

    /// Ids in the order of the layout they are in.
    let inserted: [String]
    let removed: [String]
    /// In the after layout's order.
    let moved: [Move]
    let resized: [Resize]
    /// Each row's changes, in the before panel (0) and the after panel (1).
    private let changes: [[String: [Change]]]

    init(before: StackLayout, after: StackLayout) {
        var old: [String: RowLayout] = [:]
        for row in before.rows { old[row.id] = row }
        var new: [String: RowLayout] = [:]
        for row in after.rows { new[row.id] = row }
        var inserted: [String] = [], moved: [Move] = [], resized: [Resize] = []
        var beforeChanges: [String: [Change]] = [:], afterChanges: [String: [Change]] = [:]
        for row in after.rows {
            guard let was = old[row.id] else {
                inserted.append(row.id)
                afterChanges[row.id] = [.inserted]
                continue
            }
            var changed: [Change] = []
            if was.index != row.index {
                moved.append(Move(id: row.id, from: was.index, to: row.index))
                changed.append(.moved)
            }
            if was.frame.size != row.frame.size {
                resized.append(Resize(id: row.id, before: was.frame, after: row.frame))
                changed.append(.resized)
            }
            if !changed.isEmpty {
                beforeChanges[row.id] = changed
                afterChanges[row.id] = changed
            }
        }
        let removed = before.rows.filter { new[$0.id] == nil }.map(\.id)
        for id in removed { beforeChanges[id] = [.removed] }
        self.inserted = inserted
        self.removed = removed
        self.moved = moved
        self.resized = resized
        changes = [beforeChanges, afterChanges]
    }

    static let legendHeight = 28.0
    static let outlineWidth = 3.0

    /// `scene` (panel 0 the before layout, panel 1 the after one, as `PictureScene` draws
    /// them) with each changed row's group given `data-change` (its changes, space
    /// separated) and outlined inside its frame, one outline per change (nested), and a legend
    /// under the panels. `builder` draws the legend's words. O(items of the scene).
    func marked(_ scene: Scene, builder: PictureScene) -> Scene {
        var marked = scene
        marked.items = scene.items.map { item in
            guard case .group(let attributes, let offset, let clip, let items) = item,
                  let panel = attributes.first(where: { $0.name == "data-panel" }).flatMap({ Int($0.value) }), panel < changes.count else { return item }
            return .group(attributes: attributes, offset: offset, clip: clip, items: items.map { markRows($0, changes[panel]) })
        }
        var legend: [SceneItem] = []
        var x = PictureScene.margin
        let y = scene.height
        for change in Change.allCases {
            legend.append(.rect(Rect(x: x, y: y + 4, width: 14, height: 14), fill: nil, stroke: Stroke(width: Self.outlineWidth, color: change.color),
                                attributes: [.init("class", "legend-swatch"), .init("data-change", change.rawValue)]))
            legend += builder.label(change.rawValue, size: 12, color: RGBA(red: 0x1C, green: 0x1C, blue: 0x1E), at: Point(x: x + 20, y: y + 3))
            x += 96
        }
        marked.items.append(.group(attributes: [.init("class", "legend")], clip: nil, items: legend))
        marked.height += Self.legendHeight
        marked.width = max(marked.width, x)
        return marked
    }

    /// In a panel's `content-space` group, each changed row's group marked and followed by its outlines.
    private func markRows(_ item: SceneItem, _ changes: [String: [Change]]) -> SceneItem {
        guard case .group(let attributes, let offset, let clip, let items) = item, attributes.contains(.init("class", "content-space")) else { return item }
        var out: [SceneItem] = []
        for row in items {
            guard case .group(let rowAttributes, let rowOffset, let rowClip, let rowItems) = row,
                  let id = rowAttributes.first(where: { $0.name == "data-id" })?.value, let changed = changes[id],
                  case .rect(let frame, _, _, _, _)? = rowItems.first else {
                out.append(row)
                continue
            }
            let names = changed.map(\.rawValue).joined(separator: " ")
            out.append(.group(attributes: rowAttributes + [.init("data-change", names)], offset: rowOffset, clip: rowClip, items: rowItems))
            for (k, change) in changed.enumerated() {
                let inset = Self.outlineWidth * (Double(k) + 0.5)
                let box = Rect(x: frame.minX + inset, y: frame.minY + inset,
                               width: max(0, frame.size.width - 2 * inset), height: max(0, frame.size.height - 2 * inset))
                out.append(.rect(box, fill: nil, stroke: Stroke(width: Self.outlineWidth, color: change.color),
                                 attributes: [.init("class", "change"), .init("data-change", change.rawValue), .init("data-id", id)]))
            }
        }
        return .group(attributes: attributes, offset: offset, clip: clip, items: out)
    }
}
