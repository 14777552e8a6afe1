/// Turns a content description into a length along the scroll axis.
///
/// The stack calls it for every row whose size rule is `fit`, on insertion, on reload, and
/// whenever the axis or the cross extent changes. Implementations must be pure: the same
/// description and cross extent always give the same length.
public protocol ContentMeasuring: Sendable {
    /// The content's length along `axis` when its extent across `axis` is `crossExtent`.
    func length(of content: ContentDescription, along axis: Axis, crossExtent: Double) -> Double

    /// The frame of every node of `content` (and of every text line) inside a content frame
    /// whose origin is (0, 0) and whose extent across `axis` is `crossExtent`; the root's
    /// length along `axis` is `length(of:along:crossExtent:)`.
    func frames(of content: ContentDescription, along axis: Axis, crossExtent: Double) -> ContentFrame

    /// Throws when `content` (at path `field`) cannot be measured, e.g. text in a font that
    /// isn't there. Rows are checked with it before they enter a stack.
    func check(_ content: ContentDescription, field: String) throws(StackError)

    /// The content length along `axis` of the stack with id `stack` laid out with `crossExtent`
    /// across `axis` (a fit row embedding that stack), nil when it is not known. Unlike the
    /// others this is not pure: it follows the embedded stack, and the stack re-measures such
    /// rows only when told (`staleFitRows(embedding:)`, `reload`).
    func embeddedLength(of stack: String, along axis: Axis, crossExtent: Double) -> Double?

    /// A hint that `contents` are about to be measured, one after the other: a measurer may
    /// do the work ahead, on several threads (`TextMeasuring.prepare`). It never changes
    /// what measuring answers. The stack gives the fit rows of a batch here before measuring
    /// them.
    func prepare(_ contents: [ContentDescription])

    /// Whether `prepare` does anything: callers skip gathering contents when it does not.
    var prepares: Bool { get }
}

extension ContentMeasuring {
    /// Nothing to check for a measurer that measures every description.
    public func check(_ content: ContentDescription, field: String) throws(StackError) {}

    /// A measurer that knows no other stack knows no embedded length.
    public func embeddedLength(of stack: String, along axis: Axis, crossExtent: Double) -> Double? { nil }

    /// Nothing to do ahead for a measurer that does not say otherwise.
    public func prepare(_ contents: [ContentDescription]) {}

    public var prepares: Bool { false }

    /// A measurer that knows nothing of the inside of its content answers the root alone,
    /// spanning the cross extent.
    public func frames(of content: ContentDescription, along axis: Axis, crossExtent: Double) -> ContentFrame {
        let length = self.length(of: content, along: axis, crossExtent: crossExtent)
        return ContentFrame(frame: Rect(axis: axis, mainOrigin: 0, mainLength: length, crossOrigin: 0, crossLength: Swift.max(0, crossExtent)))
    }
}

