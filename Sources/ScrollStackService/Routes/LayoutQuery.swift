import JSONCodec
import ScrollStackCore

/// What a layout request asks for besides the stack, read from the query (and, for the
/// stateless layout, the body's `devices`) and checked before any stack is locked.
///
/// Rules (Docs/Semantics.md, "Previews: devices, what-if, pages"): `width`/`height` override
/// the viewport, or `devices` lays out once per device; `offset` places the viewport, or
/// `scrollTo` (+ `position`) places it where that scroll would; `window=visible` keeps the
/// visible rows, or `from`/`limit` keep one page. Nothing here changes the stack.
struct LayoutQuery {
    enum Scroll {
        case offset(String)
        case target(ScrollTarget)
    }

    var width: Double?
    var height: Double?
    var scroll: Scroll?
    var visibleOnly = false
    /// The page of rows to answer, when paging.
    var page: Range<Int>?
    var devices: [Device]?
    /// `content=frames`: each shown fit row's content node frames (and text line boxes).
    var contentFrames = false
    /// How many levels of embedded stacks the answer follows (`?depth=`, 0…`EmbeddedLayouts.maxDepth`,
    /// all of them by default); 0 answers the stack alone.
    var depth = EmbeddedLayouts.maxDepth

    static let parameters = ["offset", "width", "height", "window", "scrollTo", "position", "devices", "from", "limit", "content", "depth"]

    /// The largest page.
    static let pageLimit = 10_000

    init(_ c: RequestContext) throws(APIError) {
        width = try c.queryNumber("width")
        height = try c.queryNumber("height")
        for (name, value) in [("width", width), ("height", height)] {
            if let value, !(0...1e9).contains(value) { throw .badQuery(name, "must be in 0…1000000000, got \(value)") }
        }
        switch c.query("content") {
        case nil, "none": contentFrames = false
        case "frames": contentFrames = true
        case let other?: throw .badQuery("content", "must be \"frames\" or \"none\", got \"\(other)\"")
        }
        switch c.query("window") {
        case nil, "all": visibleOnly = false
        case "visible": visibleOnly = true
        case let other?: throw .badQuery("window", "must be \"visible\" or \"all\", got \"\(other)\"")
        }
        if let target = c.query("scrollTo") {
            guard c.query("offset") == nil else { throw .badQuery("scrollTo", "give either offset or scrollTo, not both") }
            switch target {
            case "top":
                guard c.query("position") == nil else { throw .badQuery("position", "only goes with scrollTo={row}") }
                scroll = .target(.top)
            case "bottom":
                guard c.query("position") == nil else { throw .badQuery("position", "only goes with scrollTo={row}") }
                scroll = .target(.bottom)
            default:
                guard !target.isEmpty else { throw .badQuery("scrollTo", "must be top, bottom or a row id") }
                let position = try c.query("position").map { text throws(APIError) -> ScrollPosition in
                    guard let position = ScrollPosition(rawValue: text) else {
                        throw .badQuery("position", "must be one of \(ScrollPosition.allCases.map(\.rawValue).joined(separator: ", ")), got \"\(text)\"")
                    }
                    return position
                } ?? .automatic
                scroll = .target(.row(.id(target), position))
            }
        } else if c.query("position") != nil {
            throw .badQuery("position", "only goes with scrollTo={row}")
        } else if let text = c.query("offset") {
            scroll = .offset(text)
        }
        depth = try c.queryInt("depth", in: 0...EmbeddedLayouts.maxDepth) ?? EmbeddedLayouts.maxDepth
        let from = try c.queryInt("from", in: 0...Int(Int32.max))
        let limit = try c.queryInt("limit", in: 1...Self.pageLimit)
        if from != nil || limit != nil {
            guard !visibleOnly else { throw .badQuery(from != nil ? "from" : "limit", "pages the full layout; window=visible is already small") }
            let start = from ?? 0
            page = start..<(start + (limit ?? 1000))
        }
        if let names = c.query("devices") {
            var devices: [Device] = []
            for name in names.split(separator: ",", omittingEmptySubsequences: false) {
                guard let device = Device.named(String(name.trimmingSpaces)) else {
                    throw .badQuery("devices", "\"\(name)\" is not a known device (GET /v1/devices lists them); known: \(Device.catalogNames)")
                }
                devices.append(device)
            }
            try setDevices(devices, inBody: false)
        }
    }

    /// Sets the devices, from the query (errors are 400) or from the body (422): at most
    /// `Device.limit` names, repeats included (the contract's `maxItems`); a device named twice
    /// (same name and size) is laid out and answered once, at its first place. O(devices²), at
    /// most 16.
    mutating func setDevices(_ given: [Device], inBody: Bool) throws(APIError) {
        var devices: [Device] = []
        for device in given.prefix(Device.limit) where !devices.contains(device) {
            devices.append(device)
        }
        let problem: String?
        if self.devices != nil {
            problem = "give devices in the query or in the body, not both"
        } else if width != nil || height != nil {
            problem = "give either devices or width/height"
        } else if given.isEmpty || given.count > Device.limit {
            problem = "must name 1 to \(Device.limit) devices"
        } else {
            problem = nil
        }
        if let problem { throw inBody ? .invalid("devices", problem) : .badQuery("devices", problem) }
        self.devices = devices
    }

    /// Reads the stateless body's `devices`: built-in names or `{"name", "width", "height",
    /// "safeArea"?}` (platform `custom`; the orientation follows the size).
    static func devices(_ field: Field) throws(APIError) -> [Device] {
        var devices: [Device] = []
        for element in try field.array() {
            if element.value.stringValue != nil {
                let name = try element.string()
                guard let device = Device.named(name) else {
                    throw .invalid(element.path, "\"\(name)\" is not a known device (GET /v1/devices lists them); known: \(Device.catalogNames)")
                }
                devices.append(device)
                continue
            }
            let object = try element.object()
            try object.allowOnly(["name", "width", "height", "safeArea"])
            let name = try object.required("name").string()
            var size = Size(width: 0, height: 0)
            for key in ["width", "height"] {
                let f = try object.required(key)
                let value = try f.double()
                guard (0...1e9).contains(value) else { throw .invalid(f.path, "must be in 0…1000000000, got \(value)") }
                if key == "width" { size.width = value } else { size.height = value }
            }
            let safeArea = try object.optional("safeArea").map { f throws(APIError) in try ModelDecoding.insets(f, base: .zero) } ?? .zero
            for (side, value) in [("top", safeArea.top), ("left", safeArea.left), ("bottom", safeArea.bottom), ("right", safeArea.right)]
            where !(0...1e9).contains(value) {
                throw .invalid(element.path + ".safeArea." + side, "must be in 0…1000000000, got \(value)")
            }
            devices.append(Device(name: name, size: size, safeArea: safeArea))
        }
        return devices
    }

    /// One layout of `stored`: with `viewport` (a device's) or the query's width/height, at
    /// the offset the query asks for, whole, windowed or paged; the `LaidOut` holds a copy of the
    /// stack as laid out (`withLayout` reads it without one).
    ///
    /// - Complexity: O(n) when the viewport's cross extent changes (rows are re-measured) or
    ///   for a full layout; otherwise O(log n + k) for a window or a page of k rows.
    func layout(of stored: ScrollStack, viewport: Size?) throws(APIError) -> LaidOut {
        try withLayout(of: stored, viewport: viewport) { stack, layout, window in LaidOut(stack: stack, layout: layout, window: window) }
    }

    /// `layout(of:viewport:)`'s stack, rows and window handed to `body` instead of kept: when
    /// the query changes nothing of the stack (no viewport of its own), `body` reads `stored`
    /// itself, not a copy (copying a `ScrollStack` retains each of its tables: about 1,800
    /// instructions with the copy's release).
    func withLayout<T>(of stored: ScrollStack, viewport: Size?,
                       _ body: (ScrollStack, StackLayout, StackLayout?) throws(APIError) -> T) throws(APIError) -> T {
        guard let size = changedViewport(of: stored, viewport) else { return try laidOut(stored, offset: try offset(in: stored), body) }
        let stack = try resized(stored, to: size)
        return try laidOut(stack, offset: try offset(in: stack), body)
    }

    /// `body` given `stack`'s rows the query asks for at `offset`, and for a page its visible window.
    private func laidOut<T>(_ stack: ScrollStack, offset: Point?,
                            _ body: (ScrollStack, StackLayout, StackLayout?) throws(APIError) -> T) throws(APIError) -> T {
        if visibleOnly { return try body(stack, stack.visibleLayout(offset: offset), nil) }
        if let page { return try body(stack, stack.layout(offset: offset, rows: page), stack.visibleLayout(offset: offset)) }
        return try body(stack, stack.layout(offset: offset), nil)
    }

    /// The stack with the query's viewport, and the offset to lay it out at (nil: its own).
    func prepared(_ stored: ScrollStack, viewport: Size?) throws(APIError) -> (ScrollStack, Point?) {
        guard let size = changedViewport(of: stored, viewport) else { return (stored, try offset(in: stored)) }
        let stack = try resized(stored, to: size)
        return (stack, try offset(in: stack))
    }

    /// The viewport the layout is computed in when it is not `stack`'s own: `viewport` (a
    /// device's), else the query's width and height (either one standing for itself); nil
    /// when neither is given or they equal the stack's.
    private func changedViewport(of stack: ScrollStack, _ viewport: Size?) -> Size? {
        let size = viewport ?? ((width != nil || height != nil)
            ? Size(width: width ?? stack.settings.viewport.width, height: height ?? stack.settings.viewport.height) : nil)
        guard let size, size != stack.settings.viewport else { return nil }
        return size
    }

    /// A copy of `stored` with `size` as its viewport (rows re-measured when its cross extent changes).
    private func resized(_ stored: ScrollStack, to size: Size) throws(APIError) -> ScrollStack {
        var stack = stored
        do { _ = try stack.update(SettingsChange(viewport: size)) } catch { throw APIError(error) }
        return stack
    }

    /// The offset the query asks for in `stack` (as prepared), nil for its own.
    private func offset(in stack: ScrollStack) throws(APIError) -> Point? {
        switch scroll {
        case nil:
            return nil
        case .offset(let text)?:
            return try Self.offset(text, current: stack.settings.offset, axis: stack.settings.axis)
        case .target(let target)?:
            do {
                return try stack.offset(for: target)
            } catch {
                if case .row(let reference, _) = target { throw .badQuery("scrollTo", "no row has the id \(reference)") }
                throw APIError(error)
            }
        }
    }

    /// `?offset=N` sets the offset along the scroll axis; `?offset=X,Y` sets both.
    private static func offset(_ text: String, current: Point, axis: Axis) throws(APIError) -> Point {
        let parts = text.split(separator: ",", omittingEmptySubsequences: false).map { Double($0.trimmingSpaces) }
        switch parts.count {
        case 1:
            if let value = parts[0], value.isFinite, abs(value) <= 1e15 {
                var offset = current
                offset[axis] = value
                return offset
            }
        case 2:
            if let x = parts[0], let y = parts[1], x.isFinite, y.isFinite, abs(x) <= 1e15, abs(y) <= 1e15 { return Point(x: x, y: y) }
        default:
            break
        }
        throw .badQuery("offset", "must be a number (along the scroll axis) or x,y, each within ±1e15; got \"\(text)\"")
    }
}
