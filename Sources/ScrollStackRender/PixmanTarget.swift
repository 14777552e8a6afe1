internal import CCairo
import ScrollStackCore

/// A Cairo context's image target, for compositing glyph masks on it with pixman directly:
/// what `cairo_mask_surface` does for a solid colour over an A8 mask (the same pixman
/// operation on the same pixels, so the same result), without Cairo's per-call work
/// (patterns, clip reduction, compositor dispatch), which cost several times pixman's own
/// for a glyph of text.
///
/// Made only when the drawing is one pixman can do alone: an ARGB32 image target, the OVER
/// operator and a clip Cairo can state as whole-pixel rectangles (the picture, a band of it,
/// a rectangular viewport); nil otherwise (a rounded clip), and the caller uses Cairo.
final class PixmanTarget {
    private let surface: OpaquePointer
    private let image: OpaquePointer
    private let source: OpaquePointer
    /// The target's device offset: a band's picture moves up by its top.
    private let offsetX: Int32, offsetY: Int32
    /// Whether pixman has written since Cairo last drew (`finish` tells Cairo).
    private var writing = false

    /// The target of `cr` (whose matrix is the identity: user space is device space), with
    /// `color` as the source. O(clip rectangles).
    init?(_ cr: OpaquePointer, color: RGBA) {
        guard let surface = cairo_get_group_target(cr), cairo_surface_get_type(surface) == CAIRO_SURFACE_TYPE_IMAGE,
              cairo_image_surface_get_format(surface) == CAIRO_FORMAT_ARGB32, cairo_get_operator(cr) == CAIRO_OPERATOR_OVER,
              let data = cairo_image_surface_get_data(surface) else { return nil }
        var dx = 0.0, dy = 0.0
        cairo_surface_get_device_offset(surface, &dx, &dy)
        guard dx == dx.rounded(), dy == dy.rounded(), abs(dx) < 1e9, abs(dy) < 1e9 else { return nil }
        // The clip, in user space (here device space): rectangles, or none that pixman can use.
        guard let list = cairo_copy_clip_rectangle_list(cr) else { return nil }
        defer { cairo_rectangle_list_destroy(list) }
        guard list.pointee.status == CAIRO_STATUS_SUCCESS else { return nil }
        var boxes: [pixman_box32_t] = []
        for k in 0..<Int(list.pointee.num_rectangles) {
            let r = list.pointee.rectangles[k]
            let x1 = r.x + dx, y1 = r.y + dy, x2 = r.x + r.width + dx, y2 = r.y + r.height + dy
            guard [x1, y1, x2, y2].allSatisfy({ $0 == $0.rounded() && abs($0) < 1e9 }) else { return nil }
            boxes.append(pixman_box32_t(x1: Int32(x1), y1: Int32(y1), x2: Int32(x2), y2: Int32(y2)))
        }
        let width = cairo_image_surface_get_width(surface), height = cairo_image_surface_get_height(surface)
        guard let image = pixman_image_create_bits(PIXMAN_a8r8g8b8, width, height, UnsafeMutableRawPointer(data).assumingMemoryBound(to: UInt32.self),
                                                   cairo_image_surface_get_stride(surface)) else { return nil }
        var region = pixman_region32_t()
        pixman_region32_init_rects(&region, boxes, Int32(boxes.count))
        pixman_image_set_clip_region32(image, &region)
        pixman_region32_fini(&region)
        var solid = Self.color(color)
        guard let source = pixman_image_create_solid_fill(&solid) else {
            pixman_image_unref(image)
            return nil
        }
        self.surface = surface
        self.image = image
        self.source = source
        offsetX = Int32(dx)
        offsetY = Int32(dy)
    }

    deinit {
        finish()
        pixman_image_unref(source)
        pixman_image_unref(image)
    }

    /// `color` as Cairo hands a solid source to pixman: each channel premultiplied by alpha
    /// and scaled to 16 bits, rounded to nearest (`cairo_set_source_rgba` of the 8-bit
    /// values over 255, as `CairoCanvas` sets them).
    static func color(_ color: RGBA) -> pixman_color_t {
        let alpha = Double(color.alpha) / 255
        func short(_ value: Double) -> UInt16 { UInt16(value * 65535 + 0.5) }
        return pixman_color_t(red: short(Double(color.red) / 255 * alpha), green: short(Double(color.green) / 255 * alpha),
                              blue: short(Double(color.blue) / 255 * alpha), alpha: short(alpha))
    }

    /// Composites the A8 surface `mask` in the colour, its top left at device pixel (x, y):
    /// OVER, within the clip. O(mask pixels).
    func composite(_ mask: OpaquePointer, x: Int, y: Int) {
        guard let data = cairo_image_surface_get_data(mask) else { return }
        let width = cairo_image_surface_get_width(mask), height = cairo_image_surface_get_height(mask)
        guard abs(x) < 1 << 30, abs(y) < 1 << 30,
              let image = pixman_image_create_bits(PIXMAN_a8, width, height, UnsafeMutableRawPointer(data).assumingMemoryBound(to: UInt32.self),
                                                   cairo_image_surface_get_stride(mask)) else { return }
        defer { pixman_image_unref(image) }
        if !writing {
            cairo_surface_flush(surface)
            writing = true
        }
        pixman_image_composite32(PIXMAN_OP_OVER, source, image, self.image, 0, 0, 0, 0, Int32(x) + offsetX, Int32(y) + offsetY, width, height)
    }

    /// Tells Cairo its pixels changed, before it draws on the target again. O(1).
    func finish() {
        guard writing else { return }
        cairo_surface_mark_dirty(surface)
        writing = false
    }
}
