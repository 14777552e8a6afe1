import ScrollStackCore

/// A computed layout with what it was computed on.
struct LaidOut {
    /// The stack as laid out (the viewport a device or the query gave).
    let stack: ScrollStack
    /// The rows asked for: all, the visible window, or one page.
    let layout: StackLayout
    /// For a page: the visible window, so `visibleRows` covers the whole viewport.
    let window: StackLayout?
}
