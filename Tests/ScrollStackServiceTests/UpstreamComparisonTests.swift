import Foundation
import JSONCodec
import TestHTTPClient
import TestSeeds
import XCTest

/// Seeded random comparisons over HTTP against small reference models of the upstream
/// algorithms, written from reading them: Parchment's menu (`PagingCollectionViewLayout`,
/// `PagingIndicatorMetric`, `PagingIndicatorLayoutAttributes`, `PagingBorderLayoutAttributes`,
/// `PagingController`'s offsets, `PagingTitleCell`'s colours; over pages along x and y),
/// CustomPageableCollectionView's
/// page offsets (along and across the scroll axis), UIPageControl's size under UIPageViewController, Pile's `PileView` stack and
/// ScrollStackController's `ScrollStackRowAnimator` timing. Where Docs/Semantics.md deliberately changes an upstream
/// rule, the model follows the change and says so (table "Upstream rules").
///
/// Prints `upstream comparisons (seed S): N passed, M failed`; the seed is `TestSeed`'s (fixed,
/// or `SCROLLSTACK_SEED=<n>`).
final class UpstreamComparisonTests: XCTestCase {
    var server: ServerHarness!
    var passed = 0
    var failures: [String] = []
    var counts: [String: Int] = [:]

    override func setUpWithError() throws { server = try ServerHarness() }
    override func tearDown() { server.stop() }

    typealias Generator = SeededRandom

    func j(_ text: String) throws -> JSON { try JSON.parse(Array(text.utf8)) }

    func check(_ library: String, _ ok: Bool, _ what: @autoclosure () -> String) {
        counts[library, default: 0] += 1
        if ok { passed += 1 } else if failures.count < 20 { failures.append("\(library): \(what())") } else { failures.append("") }
    }

    func close(_ a: Double?, _ b: Double) -> Bool { a.map { abs($0 - b) <= 1e-6 * max(1, abs(b)) } ?? false }

    func testUpstreamComparisons() throws {
        let seed = TestSeed.seed("upstream comparisons")
        var rng = Generator(seed)
        for c in 0..<300 { try compareParchment(case: c, &rng) }
        for c in 0..<120 { try compareCustomPageable(case: c, &rng) }
        for c in 0..<80 { try compareCustomPageableAcross(case: c, &rng) }
        for c in 0..<60 { try comparePageControl(case: c, &rng) }
        for c in 0..<60 { try comparePile(case: c, &rng) }
        for c in 0..<40 { try compareRowAnimator(case: c, &rng) }
        let failed = failures.count
        let perLibrary = counts.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }.joined(separator: ", ")
        print("upstream comparisons (seed \(seed)): \(passed) passed, \(failed) failed [\(perLibrary)]")
        for failure in failures.prefix(20) where !failure.isEmpty { print("  " + failure) }
        XCTAssertEqual(failed, 0, "seed \(seed): " + failures.prefix(5).joined(separator: "; "))
        XCTAssertGreaterThanOrEqual(passed + failed, 2000)
    }

    // MARK: Parchment

    /// Parchment's menu, from its layout's rules, for one transition state.
    struct MenuModel {
        enum Mode { case fixed, sizeToFit, selfSizing }
        var mode: Mode
        var baseWidth: Double
        var height: Double
        /// The size delegate's widths (normal, selected), or nil.
        var delegate: [(Double, Double)]?
        var n: Int
        var spacing: Double
        var insets: (top: Double, left: Double, bottom: Double, right: Double)
        var alignment: String
        var position: String
        var indicator: (height: Double, sl: Double, sr: Double, il: Double, ir: Double, it: Double, ib: Double)
        var border: (height: Double, l: Double, r: Double)
        var top: Bool
        var bounds: Double

        var menuHeight: Double { height + insets.top + insets.bottom }

        /// createLayoutAttributes for (current, upcoming, |progress|): frames and content width.
        func layout(current: Int, upcoming: Int?, progress: Double) -> (frames: [(x: Double, w: Double)], content: Double) {
            var frames: [(x: Double, w: Double)] = []
            var x = insets.left
            for i in 0..<n {
                var w = baseWidth
                if let d = delegate {
                    w = d[i].0
                    if i == current { w = d[i].1 + (d[i].0 - d[i].1) * progress }
                    else if i == upcoming { w = d[i].0 + (d[i].1 - d[i].0) * progress }
                }
                frames.append((x, max(0, w)))
                x += max(0, w) + spacing
            }
            var maxX = frames.last.map { $0.x + $0.w } ?? insets.left
            // Decision (Semantics): the fit test counts both insets.
            if maxX + insets.right < bounds {
                if mode == .sizeToFit && delegate == nil {
                    let w = (bounds - insets.left - insets.right - spacing * Double(n - 1)) / Double(n)
                    frames = (0..<n).map { (insets.left + Double($0) * (w + spacing), w) }
                    maxX = frames.last!.x + w
                } else if alignment != "left" {
                    // Decision: centring counts both insets; the content follows the shift.
                    let room = bounds - maxX - insets.right
                    let shift = alignment == "center" ? room / 2 : room
                    frames = frames.map { ($0.x + shift, $0.w) }
                    maxX += shift
                }
            }
            var content = maxX + insets.right
            if position == "center" {
                let padLeft = bounds / 2 - frames[0].w / 2
                let padRight = bounds / 2 - frames[n - 1].w / 2
                frames = frames.map { ($0.x + padLeft, $0.w) }
                content += padLeft + padRight
            }
            return (frames, content)
        }

        /// `selectItem(scrollPosition:)` with item i selected, clamped to the content.
        func selectedOffset(_ i: Int) -> Double {
            let (frames, content) = layout(current: i, upcoming: nil, progress: 0)
            let f = frames[i]
            let raw: Double
            switch position {
            case "left": raw = f.x
            case "right": raw = f.x + f.w - bounds
            default: raw = f.x + f.w / 2 - bounds / 2
            }
            return min(max(raw, 0), max(0, content - bounds))
        }

        /// The menu at paging progress `p`: frames, content, offset, indicator, border.
        func answer(progress p: Double) -> (frames: [(x: Double, w: Double)], content: Double, offset: Double,
                                            indicator: (x: Double, y: Double, w: Double), border: (x: Double, y: Double, w: Double)) {
            var current = 0, upcoming: Int? = nil, amount = 0.0, after = false
            if p < 0 { (current, amount) = (0, -p) }
            else if p > Double(n - 1) { (current, amount, after) = (n - 1, p - Double(n - 1), true) }
            else { current = Int(p.rounded(.down)); amount = p - Double(current); if amount > 0 { upcoming = current + 1 } }
            let (frames, content) = layout(current: current, upcoming: upcoming, progress: amount)
            let offset = upcoming.map { selectedOffset(current) + (selectedOffset($0) - selectedOffset(current)) * amount } ?? selectedOffset(current)
            // indicatorFrameForIndex, with frameForIndex's selected widths while scrolling.
            func frame(_ i: Int) -> (x: Double, w: Double) {
                if i < 0 { return (frames[0].x - frames[0].w, frames[0].w) }
                if i > n - 1 { return (frames[n - 1].x + frames[n - 1].w, frames[n - 1].w) }
                if let d = delegate, upcoming != nil, i == current || i == upcoming { return (frames[i].x, d[i].1) }
                return frames[i]
            }
            // indicatorInsetsForIndex and PagingIndicatorMetric; a width below 0 is 0 (the
            // service's rule: Parchment would hand UIKit a negative width).
            func metric(_ i: Int) -> (x: Double, w: Double) {
                let m = rawMetric(i)
                return (m.x, max(0, m.w))
            }
            func rawMetric(_ i: Int) -> (x: Double, w: Double) {
                let f = frame(i)
                let s = indicator
                if i == 0 && n == 1 { return (f.x + max(s.il, s.sl), f.w - max(s.ir, s.sr) - max(s.il, s.sl)) }
                if i == 0 { return (f.x + max(s.il, s.sl), f.w - max(s.il, s.sl) - s.sr) }
                if i >= n - 1 { return (f.x + s.sl, f.w - max(s.ir, s.sr) - s.sl) }
                return (f.x + s.sl, f.w - s.sl - s.sr)
            }
            // upcomingIndexPathForIndexPath; bug not reproduced: a single item overscrolled
            // after itself heads for the virtual item after it.
            let target = upcoming ?? (amount == 0 ? current : (after ? n : -1))
            let a = metric(current), b = metric(target)
            let y = top ? menuHeight - indicator.height - indicator.ib + indicator.it : indicator.ib
            let ind = (a.x + (b.x - a.x) * amount, y, a.w + (b.w - a.w) * amount)
            let bor = (border.l, top ? menuHeight - border.height : 0, max(bounds, content) - border.l - border.r)
            return (frames, content, offset, ind, bor)
        }

        /// PagingCollectionViewLayout.progressForItem at paging progress `p`: the current item
        /// 1 − |progress|, the upcoming one |progress|, the others 0 (as the transition above).
        func itemProgress(progress p: Double) -> [Double] {
            var current = 0, upcoming: Int? = nil, amount = 0.0
            if p < 0 { (current, amount) = (0, -p) }
            else if p > Double(n - 1) { (current, amount) = (n - 1, p - Double(n - 1)) }
            else { current = Int(p.rounded(.down)); amount = p - Double(current); if amount > 0 { upcoming = current + 1 } }
            return (0..<n).map { $0 == current ? 1 - amount : ($0 == upcoming ? amount : 0) }
        }

        /// UIColor.interpolate: the fraction clamped to 0…1, each RGBA component linear; here
        /// on 8-bit channels, rounded to the nearest (Semantics, "Colours").
        static func interpolate(_ from: [Int], _ to: [Int], _ fraction: Double) -> String {
            let f = min(1, max(0, fraction))
            return "#" + zip(from, to).map { a, b in
                String(format: "%02X", Int((Double(a) + Double(b - a) * f).rounded()))
            }.joined()
        }
    }

    func compareParchment(case c: Int, _ rng: inout Generator) throws {
        let bounds = [320.0, 375, 414][Int.random(in: 0..<3, using: &rng)]
        let n = Int.random(in: 1...7, using: &rng)
        let modes: [MenuModel.Mode] = [.fixed, .sizeToFit, .selfSizing]
        let mode = modes[Int.random(in: 0..<3, using: &rng)]
        let useDelegate = Bool.random(using: &rng)
        func r(_ range: ClosedRange<Double>) -> Double { (Double.random(in: range, using: &rng) * 4).rounded() / 4 }
        let delegate: [(Double, Double)]? = useDelegate ? (0..<n).map { _ in (r(20...160), r(20...200)) } : nil
        let model = MenuModel(
            mode: mode, baseWidth: r(10...200), height: r(20...60), delegate: delegate, n: n, spacing: r(0...12),
            insets: (r(0...10), r(0...30), r(0...10), r(0...30)),
            alignment: ["left", "center", "right"][Int.random(in: 0..<3, using: &rng)],
            position: ["left", "right", "center", "preferCentered"][Int.random(in: 0..<4, using: &rng)],
            indicator: (r(1...8), r(0...20), r(0...20), r(0...20), r(0...20), r(0...6), r(0...6)),
            border: (r(0.5...3), r(0...20), r(0...20)), top: Bool.random(using: &rng), bounds: bounds)
        // PagingOptions' title and background colours (normal, selected), RGBA channels.
        let colours = (0..<4).map { _ in (0..<4).map { _ in Int.random(in: 0...255, using: &rng) } }
        func hex(_ c: [Int]) -> String { "#" + c.map { String(format: "%02x", $0) }.joined() }
        let modeName = ["fixed": "width", "sizeToFit": "minWidth", "selfSizing": "estimatedWidth"]
        let name = mode == .fixed ? "fixed" : mode == .sizeToFit ? "sizeToFit" : "selfSizing"
        let i = model.indicator
        let menu = """
            {"itemSize": {"\(name)": {"\(modeName[name]!)": \(model.baseWidth), "height": \(model.height)}}, "itemSpacing": \(model.spacing),
             "insets": {"top": \(model.insets.top), "left": \(model.insets.left), "bottom": \(model.insets.bottom), "right": \(model.insets.right)},
             "horizontalAlignment": "\(model.alignment)", "selectedScrollPosition": "\(model.position)", "position": "\(model.top ? "top" : "bottom")",
             "indicator": {"height": \(i.height), "spacing": {"left": \(i.sl), "right": \(i.sr)}, "insets": {"top": \(i.it), "left": \(i.il), "bottom": \(i.ib), "right": \(i.ir)}},
             "border": {"height": \(model.border.height), "insets": {"left": \(model.border.l), "right": \(model.border.r)}},
             "textColor": "\(hex(colours[0]))", "selectedTextColor": "\(hex(colours[1]))",
             "backgroundColor": "\(hex(colours[2]))", "selectedBackgroundColor": "\(hex(colours[3]))"}
            """
        // Every other case pages vertically (contentNavigationOrientation .vertical): the menu
        // is the same horizontal strip, bounds wide, at the same progress along y.
        let vertical = c % 2 == 1
        let page = vertical ? 400 : bounds
        let rows = (0..<n).map { k -> String in
            let title = delegate.map { #", "title": {"text": "T", "width": \#($0[k].0), "selectedWidth": \#($0[k].1)}"# } ?? ""
            return #"{"id": "p\#(k)", "view": {"type": "Page"}, "size": {"fixed": \#(page)}\#(title)}"#
        }.joined(separator: ", ")
        let id = "m\(c)"
        let body = """
            {"id": "\(id)", "axis": "\(vertical ? "vertical" : "horizontal")", "viewport": {"width": \(bounds), "height": 400},
             "rowInsets": {"top": 0, "left": 0, "bottom": 0, "right": 0}, "paging": true, "menu": \(menu), "rows": [\(rows)]}
            """
        let created = try server.request("POST", "/v1/stacks", json: try j(body))
        guard created.status == 201 else { return check("Parchment", false, "case \(c) not created: \(created.text)") }
        var progresses = [0.0, Double(n - 1)]
        for _ in 0..<3 { progresses.append((Double.random(in: -0.9...(Double(n - 1) + 0.9), using: &rng) * 64).rounded() / 64) }
        for p in progresses {
            let reply = try server.request("GET", "/v1/stacks/\(id)/layout?offset=\(p * page)")
            // A single stop has progress 0 wherever the stack is (Semantics, Paging).
            let want = model.answer(progress: n == 1 ? 0 : p)
            var ok = close(reply["menu.contentSize.width"]?.doubleValue, want.content)
                && close(reply["menu.contentOffset.x"]?.doubleValue, want.offset)
                && close(reply["menu.indicator.x"]?.doubleValue, want.indicator.x)
                && close(reply["menu.indicator.y"]?.doubleValue, want.indicator.y)
                && close(reply["menu.indicator.width"]?.doubleValue, want.indicator.w)
                && close(reply["menu.border.x"]?.doubleValue, want.border.x)
                && close(reply["menu.border.y"]?.doubleValue, want.border.y)
                && close(reply["menu.border.width"]?.doubleValue, want.border.w)
            let items = reply["menu.items"]?.arrayValue ?? []
            ok = ok && items.count == n
            for (k, f) in want.frames.enumerated() where k < items.count {
                ok = ok && close(items[k]["frame"]?["x"]?.doubleValue, f.x) && close(items[k]["frame"]?["width"]?.doubleValue, f.w)
                    && close(items[k]["frame"]?["y"]?.doubleValue, model.insets.top)
            }
            // PagingTitleCell.apply: title and background colours at each item's progress.
            for (k, f) in model.itemProgress(progress: n == 1 ? 0 : p).enumerated() where k < items.count {
                ok = ok && close(items[k]["progress"]?.doubleValue, min(1, max(0, f)))
                    && items[k]["textColor"]?.stringValue == MenuModel.interpolate(colours[0], colours[1], f)
                    && items[k]["backgroundColor"]?.stringValue == MenuModel.interpolate(colours[2], colours[3], f)
            }
            check("Parchment", ok, "case \(c) progress \(p): \(body) answered \(reply["menu"].map { String(decoding: $0.serialized(), as: UTF8.self) } ?? reply.text), model \(want)")
        }
    }

    // MARK: CustomPageableCollectionView

    /// `PagingConfiguration.resolvedContentOffset`: page k (pager offset k·P) sits at
    /// k·P − (cL + pL) leading, k·P + P − (V − cT − pT) trailing, and
    /// k·P + P/2 − (cL + (V − cL − cT)/2) − pL + pR centred upstream; here centred pages use
    /// the midpoint of the two anchors, k·P + P/2 − (cL + V − cT)/2 − (pL − pR)/2 (a
    /// deliberate change: see Semantics). Stops: those clamped to the scroll range, plus its ends.
    func compareCustomPageable(case c: Int, _ rng: inout Generator) throws {
        let viewport = [300.0, 375, 400][Int.random(in: 0..<3, using: &rng)]
        let page = (Double.random(in: 40...viewport, using: &rng)).rounded()
        let rows = Int.random(in: 1...12, using: &rng)
        let rowLength = (Double.random(in: 20...300, using: &rng)).rounded()
        let alignment = ["leading", "center", "trailing"][Int.random(in: 0..<3, using: &rng)]
        let pL = Double(Int.random(in: 0...20, using: &rng)), pR = Double(Int.random(in: 0...20, using: &rng))
        let id = "g\(c)"
        let rowsJSON = (0..<rows).map { #"{"id": "r\#($0)", "view": {"type": "V"}, "size": {"fixed": \#(rowLength)}}"# }.joined(separator: ", ")
        let body = """
            {"id": "\(id)", "axis": "horizontal", "viewport": {"width": \(viewport), "height": 300},
             "rowInsets": {"top": 0, "left": 0, "bottom": 0, "right": 0},
             "paging": {"size": {"absolute": \(page)}, "alignment": "\(alignment)", "positionInsets": {"left": \(pL), "right": \(pR)}},
             "rows": [\(rowsJSON)]}
            """
        let merged = Self.customPageableStops(viewport: viewport, page: page, length: Double(rows) * rowLength, alignment: alignment, pL: pL, pR: pR)
        guard try checkCustomPageableStop(case: "case \(c)", body: body, stops: merged, member: "paging",
                                          layout: { "/v1/stacks/\(id)/layout?offset=\($0)" }, &rng) else { return }
        // Half way between two stops the progress is half way.
        if merged.count > 1 {
            let k = Int.random(in: 0..<(merged.count - 1), using: &rng)
            let half = try server.request("GET", "/v1/stacks/\(id)/layout?offset=\((merged[k] + merged[k + 1]) / 2)")
            check("CustomPageableCollectionView", close(half["paging.progress"]?.doubleValue, Double(k) + 0.5), "case \(c) half way after stop \(k): \(half.text)")
        }
    }

    /// The reference model's stops: ⌈length / page⌉ pages of `page` from 0 (no spacing), page k
    /// at k·P − pL leading, k·P + P − (V − pR) trailing, and centred at the midpoint of the
    /// two anchors; clamped to the scroll view's range [0, max(0, length − V)], which a
    /// centred stack widens to its first and last pages (the centring insets, Semantics.md
    /// "Paging": a change from the upstream, whose users set the content inset themselves);
    /// the range's ends added, stops within 10⁻⁶ merged.
    static func customPageableStops(viewport: Double, page: Double, length: Double, alignment: String, pL: Double, pR: Double) -> [Double] {
        let pages = Int(max(1, (length / page - 1e-9).rounded(.up)))
        func offset(_ k: Int) -> Double {
            let start = Double(k) * page
            switch alignment {
            case "leading": return start - pL
            case "trailing": return start + page - (viewport - pR)
            default: return start + page / 2 - viewport / 2 - (pL - pR) / 2
            }
        }
        var (rangeStart, rangeEnd) = (0.0, max(0, length - viewport))
        if alignment == "center" {
            rangeStart = min(0, offset(0))
            rangeEnd = max(rangeStart, max(length - viewport, offset(pages - 1)))
        }
        var stops: [Double] = [rangeStart, rangeEnd]
        for k in 0..<pages { stops.append(min(max(offset(k), rangeStart), rangeEnd)) }
        stops.sort()
        var merged: [Double] = []
        for s in stops where merged.last.map({ s - $0 >= 1e-6 }) ?? true { merged.append(s) }
        return merged
    }

    /// Creates the stack `body` and checks the layout (`layout` of a stop's offset) at one stop
    /// of `stops`, drawn at random: `member` has the stops' count as its page count, the stop's
    /// index as its page and its progress. False when the stack was refused (reported).
    func checkCustomPageableStop(case label: String, body: String, stops merged: [Double], member: String,
                                 layout: (Double) -> String, _ rng: inout Generator) throws -> Bool {
        let created = try server.request("POST", "/v1/stacks", json: try j(body))
        guard created.status == 201 else {
            check("CustomPageableCollectionView", false, "\(label) not created: \(created.text)")
            return false
        }
        let k = Int.random(in: 0..<merged.count, using: &rng)
        let reply = try server.request("GET", layout(merged[k]))
        let ok = reply["\(member).pageCount"]?.int64Value == Int64(merged.count) && reply["\(member).currentPage"]?.int64Value == Int64(k)
            && close(reply["\(member).progress"]?.doubleValue, Double(k))
        check("CustomPageableCollectionView", ok,
              "\(label): \(body) stop \(k) of \(merged) answered \(reply[member].map { String(decoding: $0.serialized(), as: UTF8.self) } ?? reply.text)")
        return true
    }

    /// The same configuration pages the other axis of a stack wider than its viewport
    /// (`crossLength`): the pager scroll view pages x and y alike. Across, pages have no
    /// spacing; the model is `compareCustomPageable`'s with the viewport's and the content's
    /// lengths across.
    func compareCustomPageableAcross(case c: Int, _ rng: inout Generator) throws {
        let viewport = [300.0, 375, 400][Int.random(in: 0..<3, using: &rng)]
        let page = (Double.random(in: 40...viewport, using: &rng)).rounded()
        let length = (Double.random(in: 50...3000, using: &rng)).rounded()
        let alignment = ["leading", "center", "trailing"][Int.random(in: 0..<3, using: &rng)]
        let pL = Double(Int.random(in: 0...20, using: &rng)), pR = Double(Int.random(in: 0...20, using: &rng))
        let id = "x\(c)"
        let body = """
            {"id": "\(id)", "viewport": {"width": \(viewport), "height": 600}, "crossLength": \(length),
             "paging": {"size": {"absolute": \(page)}, "alignment": "\(alignment)", "positionInsets": {"left": \(pL), "right": \(pR)}},
             "rows": [{"id": "r", "view": {"type": "V"}, "size": {"fixed": 600}}]}
            """
        let merged = Self.customPageableStops(viewport: viewport, page: page, length: length, alignment: alignment, pL: pL, pR: pR)
        guard try checkCustomPageableStop(case: "case \(c) across", body: body, stops: merged, member: "crossPaging",
                                          layout: { "/v1/stacks/\(id)/layout?offset=\($0),0&window=visible" }, &rng) else { return }
        // A flick across from stop k (the stack resting there) goes one stop on.
        if merged.count > 1 {
            let k = Int.random(in: 0..<(merged.count - 1), using: &rng)
            _ = try server.request("POST", "/v1/stacks/\(id)/scroll", json: try j(#"{"offset": {"x": \#(merged[k]), "y": 0}}"#))
            let flick = try server.request("POST", "/v1/stacks/\(id)/scroll/settle",
                                           json: try j(#"{"velocity": {"x": 800, "y": 0}, "offset": {"x": \#(merged[k]), "y": 0}, "dryRun": true}"#))
            check("CustomPageableCollectionView", close(flick["target.x"]?.doubleValue, (merged[k + 1] * 1e6).rounded() / 1e6) && flick["cross.page"]?.int64Value == Int64(k + 1),
                  "case \(c) across: a flick from stop \(k) of \(merged) answered \(flick.text)")
        }
    }

    // MARK: UIPageControl (the page-indicator article)

    /// `size(forNumberOfPages:)`: n dots and n − 1 gaps wide, max(height, dot) tall, centred.
    func comparePageControl(case c: Int, _ rng: inout Generator) throws {
        let pages = Int.random(in: 1...25, using: &rng)
        let d = Double(Int.random(in: 4...12, using: &rng)), s = Double(Int.random(in: 2...14, using: &rng))
        let h = Double(Int.random(in: 0...50, using: &rng)), inset = Double(Int.random(in: 0...30, using: &rng))
        let bottom = Bool.random(using: &rng), hides = Bool.random(using: &rng)
        let id = "d\(c)"
        let rowsJSON = (0..<pages).map { #"{"id": "r\#($0)", "view": {"type": "V"}, "size": {"fixed": 375}}"# }.joined(separator: ", ")
        let body = """
            {"id": "\(id)", "axis": "horizontal", "viewport": {"width": 375, "height": 600},
             "rowInsets": {"top": 0, "left": 0, "bottom": 0, "right": 0}, "paging": true,
             "pageIndicator": {"dotDiameter": \(d), "dotSpacing": \(s), "height": \(h), "inset": \(inset), "position": "\(bottom ? "bottom" : "top")", "hidesForSinglePage": \(hides)},
             "rows": [\(rowsJSON)]}
            """
        let created = try server.request("POST", "/v1/stacks", json: try j(body))
        guard created.status == 201 else { return check("UIPageControl", false, "case \(c) not created: \(created.text)") }
        let page = Int.random(in: 0..<pages, using: &rng)
        let offset = Double(page) * 375 + Double.random(in: -180...180, using: &rng).rounded()
        let reply = try server.request("GET", "/v1/stacks/\(id)/layout?offset=\(offset)")
        let width = Double(pages) * d + Double(pages - 1) * s, height = max(h, d)
        // The current page: the nearest stop, the earlier on a tie, clamped to the pages.
        let nearest = min(max(Int((offset / 375 - 1e-9).rounded(.toNearestOrAwayFromZero)), 0), pages - 1)
        let ok = close(reply["pageIndicator.frame.width"]?.doubleValue, width) && close(reply["pageIndicator.frame.height"]?.doubleValue, height)
            && close(reply["pageIndicator.frame.x"]?.doubleValue, (375 - width) / 2)
            && close(reply["pageIndicator.frame.y"]?.doubleValue, bottom ? 600 - inset - height : inset)
            && reply["pageIndicator.numberOfPages"]?.int64Value == Int64(pages)
            && reply["pageIndicator.currentPage"]?.int64Value == Int64(nearest)
            && reply["pageIndicator.hidden"]?.boolValue == (pages == 1 && hides)
        check("UIPageControl", ok, "case \(c) offset \(offset): \(body) answered \(reply.text)")
    }

    // MARK: Pile

    /// `PileView`'s stack: push appends and makes the view active; pop removes the top unless
    /// it is the last (refused here, 409: changed); setViews replaces; update keeps the count.
    func comparePile(case c: Int, _ rng: inout Generator) throws {
        let id = "pile\(c)"
        XCTAssertEqual(try server.request("POST", "/v1/piles", json: object(("id", .string(id)), ("bounds", object(("width", 100), ("height", 30))))).status, 201)
        var stack: [String] = []
        var next = 0
        for step in 0..<8 {
            let op = Int.random(in: 0..<4, using: &rng)
            var expectedStatus = 200
            let reply: Reply
            switch op {
            case 0:
                let view = "v\(next)"; next += 1
                reply = try server.request("POST", "/v1/piles/\(id)/push", json: object(("id", .string(view)), ("view", object(("type", "L")))))
                stack.append(view)
            case 1:
                reply = try server.request("POST", "/v1/piles/\(id)/pop", json: object())
                if stack.count > 1 { stack.removeLast() } else { expectedStatus = 409 }
            case 2:
                let count = Int.random(in: 1...3, using: &rng)
                let views = (0..<count).map { _ -> String in next += 1; return "v\(next - 1)" }
                reply = try server.request("POST", "/v1/piles/\(id)/set", json: object(("views", .array(views.map { object(("id", .string($0)), ("view", object(("type", "L")))) }))))
                stack = views
            default:
                reply = try server.request("POST", "/v1/piles/\(id)/update", json: object(("view", object(("type", "U")))))
                if stack.isEmpty { expectedStatus = 409 }
            }
            let pile = try server.request("GET", "/v1/piles/\(id)")
            let ids = pile.json?["views"]?.arrayValue?.compactMap { $0["id"]?.stringValue } ?? []
            let ok = reply.status == expectedStatus && ids == stack && pile["active"]?.stringValue == stack.last
            check("Pile", ok, "case \(c) step \(step) op \(op): status \(reply.status) (want \(expectedStatus)), views \(ids) (want \(stack))")
        }
    }

    // MARK: ScrollStackController

    /// `ScrollStackRowAnimator`: 0.25 s; damping `springDamping ?? 1` (rows with their own
    /// animation: 0.8).
    func compareRowAnimator(case c: Int, _ rng: inout Generator) throws {
        let id = "s\(c)"
        let own = Bool.random(using: &rng)
        let look = own ? #", "transition": {"hide": {"alpha": 0}}"# : ""
        let body = #"{"id": "\#(id)", "rows": [{"id": "a", "view": {"type": "V"}, "size": {"fixed": 40}\#(look)}, {"id": "b", "view": {"type": "V"}, "size": {"fixed": 40}}]}"#
        XCTAssertEqual(try server.request("POST", "/v1/stacks", json: try j(body)).status, 201)
        let reply = try server.request("PATCH", "/v1/stacks/\(id)/rows/a", json: try j(#"{"hidden": true, "animation": true}"#))
        let ok = reply["transition.timing.damping"]?.doubleValue == (own ? 0.8 : 1) && reply["transition.timing.duration"]?.doubleValue == 0.25
        check("ScrollStackController", ok, "case \(c) own \(own): \(reply.text)")
    }
}
