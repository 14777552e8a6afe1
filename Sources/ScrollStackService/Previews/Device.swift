import ScrollStackCore

/// A named viewport to lay a stack out for: a built-in device (portrait, in points) or one a
/// request describes.
struct Device: Sendable, Equatable {
    let name: String
    let size: Size

    /// The built-in devices, by the name `?devices=` takes (portrait point sizes).
    static let catalog: [Device] = [
        Device(name: "iphone-se", size: Size(width: 375, height: 667)),
        Device(name: "iphone-mini", size: Size(width: 375, height: 812)),
        Device(name: "iphone-15", size: Size(width: 393, height: 852)),
        Device(name: "iphone-15-plus", size: Size(width: 430, height: 932)),
        Device(name: "iphone-15-pro-max", size: Size(width: 430, height: 932)),
        Device(name: "ipad-mini", size: Size(width: 744, height: 1133)),
        Device(name: "ipad", size: Size(width: 820, height: 1180)),
        Device(name: "ipad-pro-11", size: Size(width: 834, height: 1194)),
        Device(name: "ipad-pro-13", size: Size(width: 1032, height: 1376)),
    ]

    /// The most devices one request may ask for.
    static let limit = 16

    static func named(_ name: String) -> Device? { catalog.first { $0.name == name } }

    static var catalogNames: String { catalog.map(\.name).joined(separator: ", ") }
}
