extension ScrollStack {
    /// The frames of the content nodes (and text lines) inside the row laid out as `layout`,
    /// in content coordinates, when the row is shown and its length along the scroll axis is
    /// `fit`; nil otherwise (a fixed or hidden row has nothing measured to show).
    ///
    /// - Complexity: O(log n) to find the row, plus the measurer's `frames` (for
    ///   `FlexMeasurer`, O(nodes × depth)).
    public func contentFrames(of layout: RowLayout) -> ContentFrame? {
        guard let row = row(id: layout.id), !row.hidden, case .fit = row.size[settings.axis],
              let description = row.contentDescription else { return nil }
        let frames = measurer.frames(of: description, along: settings.axis, crossExtent: contentCrossExtent(of: row))
        return frames.offsetBy(dx: layout.contentFrame.minX, dy: layout.contentFrame.minY)
    }
}
