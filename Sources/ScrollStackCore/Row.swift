/// One row of a stack.
///
/// Insets and separator settings left nil follow the stack's defaults, including later
/// changes of those defaults.
public struct Row: Sendable, Hashable {
    /// Unique within its stack.
    public var id: String
    public var content: RowContent
    /// The content length along the scroll axis.
    public var size: SizeRule
    /// What `fit` measures; required when either axis of `size` is `fit`.
    public var contentDescription: ContentDescription?
    /// The row's own insets, or nil to use the stack's `rowInsets`.
    public var insets: EdgeInsets?
    public var separator: SeparatorOverride
    /// A hidden row keeps its place but has length 0, draws no separator and gets no spacing.
    public var hidden: Bool
    /// Whether a tap on the row is reported by hit tests as actionable.
    public var tappable: Bool
    public var highlightable: Bool
    /// The row's paging-menu entry, if any.
    public var title: RowTitle? = nil
    /// The row's own show/hide looks, or nil for the identity look both ways.
    public var transition: RowTransition?
    /// How pictures paint the row; never read by layout.
    public var style: RowStyle? = nil
    /// The id of the stack this row embeds: its viewport is the row's content frame. The
    /// model keeps it and counts it (`ScrollStack.embeddedStacks`); it never reads the other
    /// stack, which the service composes.
    public var stack: String? = nil

    public init(
        id: String,
        content: RowContent,
        size: SizeRule,
        contentDescription: ContentDescription? = nil,
        insets: EdgeInsets? = nil,
        separator: SeparatorOverride = .none,
        hidden: Bool = false,
        tappable: Bool = false,
        highlightable: Bool = false,
        transition: RowTransition? = nil
    ) {
        self.id = id
        self.content = content
        self.size = size
        self.contentDescription = contentDescription
        self.insets = insets
        self.separator = separator
        self.hidden = hidden
        self.tappable = tappable
        self.highlightable = highlightable
        self.transition = transition
    }

    /// The controller descriptor, for controller rows.
    public var controller: ControllerDescriptor? {
        if case .controller(let c) = content { return c }
        return nil
    }

    /// Checks every rule a row must keep on its own; `prefix` is its path with a trailing
    /// dot (`rows[2].`), or empty when the row is the whole input.
    ///
    /// - Complexity: O(size of the content description).
    func validate(prefix: String) throws(StackError) {
        guard !id.isEmpty else { throw .invalid("must not be empty", field: prefix + "id") }
        guard !content.typeName.isEmpty else {
            let kind = controller == nil ? "view" : "controller"
            throw .invalid("must not be empty", field: prefix + "\(kind).type")
        }
        try size.validate(prefix + "size")
        if let contentDescription {
            try contentDescription.validate(prefix + "content")
        } else if size.measuresContent && stack == nil {
            throw .invalid("is required when the size is fit: there is nothing to measure (or embed a stack: \"stack\")", field: prefix + "content")
        }
        if let insets { try Check.insets(insets, prefix + "insets") }
        if separator.thickness != nil || separator.insets != nil || separator.color != nil { try separator.validate(prefix + "separator") }
        try title?.validate(prefix + "title")
        try transition?.validate(prefix + "transition")
        try style?.validate(prefix + "style")
        if let stack, stack.isEmpty { throw .invalid("must not be empty", field: prefix + "stack") }
    }
}
