/// A row's own show/hide transition, as data (the original's `ScrollStackRowAnimatable`):
/// `hide` is the look the row takes as it hides (the end of a hide, the start of a show),
/// `show` the look it takes as it shows. A missing look is the identity. Insertions, removals
/// and moves never use it, as in the original.
public struct RowTransition: Sendable, Hashable {
    public var hide: RowLook?
    public var show: RowLook?

    public init(hide: RowLook? = nil, show: RowLook? = nil) {
        self.hide = hide
        self.show = show
    }

    func validate(_ field: String) throws(StackError) {
        try hide?.validate(field + ".hide")
        try show?.validate(field + ".show")
    }
}
