import ScrollStackCore

/// A named viewport to lay a stack out for: a built-in device (in points, CSS pixels on
/// Android) or one a request describes.
///
/// The safe area is what the system's bars, notch, Dynamic Island and home indicator cover:
/// it is answered with the device and never changes the layout (a stack that must avoid it
/// says so in its `contentInsets`, as an app sets them).
struct Device: Sendable, Equatable {
    enum Platform: String, Sendable { case ios, android, custom }
    enum Orientation: String, Sendable { case portrait, landscape }

    let name: String
    let size: Size
    let platform: Platform
    let orientation: Orientation
    /// The insets of the area free of system UI, in the same units as `size`.
    let safeArea: EdgeInsets

    init(name: String, size: Size, platform: Platform = .custom, orientation: Orientation? = nil, safeArea: EdgeInsets = .zero) {
        self.name = name
        self.size = size
        self.platform = platform
        self.orientation = orientation ?? (size.width > size.height ? .landscape : .portrait)
        self.safeArea = safeArea
    }

    /// One built-in device held upright: its portrait size and safe area, and the safe area
    /// it has turned a quarter (home indicator or navigation bar at the bottom).
    private struct Model {
        let name: String
        let platform: Platform
        let width: Double
        let height: Double
        let portrait: EdgeInsets
        let landscape: EdgeInsets
    }

    private static func insets(_ top: Double, _ left: Double, _ bottom: Double, _ right: Double) -> EdgeInsets {
        EdgeInsets(top: top, left: left, bottom: bottom, right: right)
    }

    /// Safe areas as UIKit reports them: a status bar of 20 pt on home-button iPhones; on Face
    /// ID iPhones the sensor housing's 50 pt (notch) or 59/62 pt (Dynamic Island) on top in
    /// portrait and on both sides in landscape, with the home indicator's 34 pt (21 pt in
    /// landscape) at the bottom; 24 pt of status bar and 20 pt of home indicator on iPads.
    private static let homeButton = (insets(20, 0, 0, 0), insets(0, 0, 0, 0))
    private static func faceID(_ sensor: Double) -> (EdgeInsets, EdgeInsets) { (insets(sensor, 0, 34, 0), insets(0, sensor, 21, sensor)) }
    private static let iPad = (insets(24, 0, 20, 0), insets(24, 0, 20, 0))
    /// Android with gesture navigation: a status bar of 24 dp on top and a navigation bar of
    /// 24 dp at the bottom in both orientations (typical values: they vary by maker).
    private static let androidPhone = (insets(24, 0, 24, 0), insets(24, 0, 24, 0))

    private static let models: [Model] = {
        func model(_ name: String, _ platform: Platform, _ width: Double, _ height: Double, _ safe: (EdgeInsets, EdgeInsets)) -> Model {
            Model(name: name, platform: platform, width: width, height: height, portrait: safe.0, landscape: safe.1)
        }
        return [
            model("iphone-se", .ios, 375, 667, homeButton),
            model("iphone-mini", .ios, 375, 812, faceID(50)),
            model("iphone-15", .ios, 393, 852, faceID(59)),
            model("iphone-15-plus", .ios, 430, 932, faceID(59)),
            model("iphone-15-pro", .ios, 393, 852, faceID(59)),
            model("iphone-15-pro-max", .ios, 430, 932, faceID(59)),
            model("iphone-16", .ios, 393, 852, faceID(59)),
            model("iphone-16-plus", .ios, 430, 932, faceID(59)),
            model("iphone-16-pro", .ios, 402, 874, faceID(62)),
            model("iphone-16-pro-max", .ios, 440, 956, faceID(62)),
            model("ipad-mini", .ios, 744, 1133, iPad),
            model("ipad", .ios, 820, 1180, iPad),
            model("ipad-air-13", .ios, 1024, 1366, iPad),
            model("ipad-pro-11", .ios, 834, 1194, iPad),
            model("ipad-pro-13", .ios, 1032, 1376, iPad),
            model("pixel-8", .android, 412, 915, androidPhone),
            model("pixel-8-pro", .android, 448, 998, androidPhone),
            model("pixel-9", .android, 412, 923, androidPhone),
            model("galaxy-s24", .android, 360, 780, androidPhone),
            model("galaxy-s24-ultra", .android, 384, 824, androidPhone),
            model("galaxy-a55", .android, 384, 854, androidPhone),
            model("pixel-tablet", .android, 800, 1280, (insets(24, 0, 24, 0), insets(24, 0, 24, 0))),
            model("galaxy-tab-s9", .android, 800, 1280, (insets(24, 0, 24, 0), insets(24, 0, 24, 0))),
        ]
    }()

    /// The built-in devices, by the name `?devices=` takes: each model upright (its name) and
    /// turned (its name + `-landscape`, width and height swapped), in `models`' order.
    static let catalog: [Device] = models.flatMap { m in
        [Device(name: m.name, size: Size(width: m.width, height: m.height), platform: m.platform, orientation: .portrait, safeArea: m.portrait),
         Device(name: m.name + "-landscape", size: Size(width: m.height, height: m.width), platform: m.platform, orientation: .landscape,
                safeArea: m.landscape)]
    }

    /// The most devices one request may ask for.
    static let limit = 16

    static func named(_ name: String) -> Device? { catalog.first { $0.name == name } }

    static var catalogNames: String { catalog.map(\.name).joined(separator: ", ") }
}
