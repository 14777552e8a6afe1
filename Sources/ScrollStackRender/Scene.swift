import ScrollStackCore
import ScrollStackText

/// A colour with 8-bit channels, straight (not premultiplied) alpha.
public struct RGBA: Sendable, Hashable {
    public var red, green, blue, alpha: UInt8

    public init(red: UInt8, green: UInt8, blue: UInt8, alpha: UInt8 = 255) {
        self.red = red
        self.green = green
        self.blue = blue
        self.alpha = alpha
    }

    /// `#RRGGBB` or `#RRGGBBAA`; nil for anything else. O(1).
    public init?(hex: String) {
        let digits = Array(hex.utf8.dropFirst())
        guard hex.utf8.first == UInt8(ascii: "#"), digits.count == 6 || digits.count == 8 else { return nil }
        var channels: [UInt8] = []
        for k in stride(from: 0, to: digits.count, by: 2) {
            guard let value = UInt8(String(decoding: digits[k..<k + 2], as: UTF8.self), radix: 16) else { return nil }
            channels.append(value)
        }
        self.init(red: channels[0], green: channels[1], blue: channels[2], alpha: channels.count == 4 ? channels[3] : 255)
    }
}

/// A line along a shape's outline, centred on it (as SVG strokes are), dashed when `dash` is
/// not empty (lengths on, off, …).
public struct Stroke: Sendable, Hashable {
    public var width: Double
    public var color: RGBA
    public var dash: [Double]

    public init(width: Double, color: RGBA, dash: [Double] = []) {
        self.width = width
        self.color = color
        self.dash = dash
    }
}

/// Glyphs of one face at one size, each at `origin` plus its position (y down): what a text
/// line draws. The face is the file the text engine shaped with.
public struct GlyphRun: Sendable, Hashable {
    public var face: FontFace
    public var size: Double
    /// The bold outline or slant drawn for a face that lacks the weight or style asked.
    public var synthesis: FontSynthesis
    public var color: RGBA
    public var origin: Point
    public var glyphs: [PositionedGlyph]

    public init(face: FontFace, size: Double, synthesis: FontSynthesis = [], color: RGBA, origin: Point, glyphs: [PositionedGlyph]) {
        self.face = face
        self.size = size
        self.synthesis = synthesis
        self.color = color
        self.origin = origin
        self.glyphs = glyphs
    }
}

/// One thing a scene draws, in points, in the scene's coordinates (y down).
public indirect enum SceneItem: Sendable, Hashable {
    /// A rectangle with rounded corners (`radius`, clamped to half the shorter side).
    /// `attributes` name it for readers of an SVG (class, id, data-…); the PNG ignores them.
    case rect(Rect, radius: Double = 0, fill: RGBA?, stroke: Stroke? = nil, attributes: [Attribute] = [])
    case circle(center: Point, radius: Double, fill: RGBA, attributes: [Attribute] = [])
    case glyphs(GlyphRun)
    /// Items drawn together, moved by `offset` (their coordinates, and `clip`'s, are the
    /// group's own), clipped to a rounded rectangle when `clip` is set. `attributes` name the
    /// group for readers of an SVG (class, data-…); the PNG ignores them.
    case group(attributes: [Attribute], offset: Point = Point(x: 0, y: 0), clip: Clip?, items: [SceneItem])

    public struct Attribute: Sendable, Hashable {
        public var name: String
        public var value: String

        public init(_ name: String, _ value: String) {
            self.name = name
            self.value = value
        }
    }

    public struct Clip: Sendable, Hashable {
        public var rect: Rect
        public var radius: Double

        public init(_ rect: Rect, radius: Double = 0) {
            self.rect = rect
            self.radius = radius
        }
    }
}

/// A picture: its size in points, a background and the items drawn in order over it.
public struct Scene: Sendable, Hashable {
    public var width: Double
    public var height: Double
    public var background: RGBA
    public var items: [SceneItem]

    public init(width: Double, height: Double, background: RGBA, items: [SceneItem]) {
        self.width = width
        self.height = height
        self.background = background
        self.items = items
    }

    /// The radius a rounded rectangle is drawn with: at most half its shorter side.
    public static func clampedRadius(_ radius: Double, _ rect: Rect) -> Double {
        max(0, min(radius, rect.size.width / 2, rect.size.height / 2))
    }
}
