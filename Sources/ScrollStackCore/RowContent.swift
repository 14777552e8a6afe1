/// What a row shows: a view controller or a plain view, described, never instantiated.
public enum RowContent: Sendable, Hashable {
    case controller(ControllerDescriptor)
    case view(ViewDescriptor)

    /// The descriptor's type name, whichever kind it is.
    public var typeName: String {
        switch self {
        case .controller(let c): c.type
        case .view(let v): v.type
        }
    }
}

/// A view controller a client renders for a row, e.g. `GalleryVC`.
public struct ControllerDescriptor: Sendable, Hashable {
    /// The controller's type name.
    public var type: String
    /// An optional client-chosen instance id, for looking the row up by controller.
    public var instance: String?
    /// Client properties, kept verbatim as serialized text: the model never reads them.
    public var properties: String?

    public init(type: String, instance: String? = nil, properties: String? = nil) {
        self.type = type
        self.instance = instance
        self.properties = properties
    }
}

/// A plain view a client renders for a row.
public struct ViewDescriptor: Sendable, Hashable {
    /// The view's type name.
    public var type: String
    /// Client properties, kept verbatim as serialized text: the model never reads them.
    public var properties: String?

    public init(type: String, properties: String? = nil) {
        self.type = type
        self.properties = properties
    }
}
