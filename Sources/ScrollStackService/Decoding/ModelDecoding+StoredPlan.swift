import JSONCodec
import ScrollStackCore
import ScrollStackTransitions

extension ModelDecoding {
    /// A plan as `ModelEncoding.plan` wrote it (kept in the journal), or nil if it is not one.
    static func storedPlan(_ json: JSON) -> TransitionPlan? {
        guard let o = json.objectValue, let timing = o["timing"].flatMap(storedTiming),
              let axis = o["axis"].flatMap({ pair($0) { $0.stringValue.flatMap(Axis.init(rawValue:)) } }),
              let viewport = o["viewport"].flatMap({ pair($0, storedSize) }),
              let contentSize = o["contentSize"].flatMap({ pair($0, storedSize) }),
              let offset = o["offset"].flatMap({ pair($0, storedPoint) }),
              let rows = o["rows"]?.arrayValue else { return nil }
        var entries: [RowTransitionEntry] = []
        for row in rows {
            guard let r = row.objectValue, let id = r["id"]?.stringValue,
                  let change = r["change"]?.stringValue.flatMap(RowTransitionEntry.Change.init(rawValue:)),
                  let from = r["from"].flatMap(storedState), let to = r["to"].flatMap(storedState) else { return nil }
            entries.append(RowTransitionEntry(id: id, change: change, enter: r["enter"]?.boolValue ?? false,
                                              exit: r["exit"]?.boolValue ?? false, from: from, to: to))
        }
        return TransitionPlan(animated: o["animated"]?.boolValue ?? false, timing: timing, axis: axis, viewport: viewport,
                              contentSize: contentSize, offset: offset, rows: entries)
    }

    static func pair<T>(_ json: JSON, _ read: (JSON) -> T?) -> (from: T, to: T)? {
        guard let from = json["from"].flatMap(read), let to = json["to"].flatMap(read) else { return nil }
        return (from, to)
    }

    /// A timing as `ModelEncoding.timing` wrote it: a spring (plans written before timing
    /// curves have no `curve`), or a timing curve with its duration and delay.
    static func storedTiming(_ json: JSON) -> AnimationTiming? {
        let curve = json["curve"].map { $0.stringValue.flatMap(AnimationCurve.init(rawValue:)) } ?? .spring
        guard let curve else { return nil }
        if curve != .spring {
            guard let duration = json["duration"]?.doubleValue, let delay = json["delay"]?.doubleValue else { return nil }
            var timing = AnimationTiming.pile
            (timing.duration, timing.delay, timing.curve) = (duration, delay, curve)
            return timing
        }
        guard let duration = json["duration"]?.doubleValue, let delay = json["delay"]?.doubleValue,
              let damping = json["damping"]?.doubleValue, let velocity = json["initialVelocity"]?.doubleValue else { return nil }
        return AnimationTiming(duration: duration, delay: delay, damping: damping, initialVelocity: velocity)
    }

    static func storedPoint(_ json: JSON) -> Point? {
        guard let x = json["x"]?.doubleValue, let y = json["y"]?.doubleValue else { return nil }
        return Point(x: x, y: y)
    }

    static func storedSize(_ json: JSON) -> Size? {
        guard let w = json["width"]?.doubleValue, let h = json["height"]?.doubleValue else { return nil }
        return Size(width: w, height: h)
    }

    static func storedRect(_ json: JSON) -> Rect? {
        guard let origin = storedPoint(json), let size = storedSize(json) else { return nil }
        return Rect(origin: origin, size: size)
    }

    static func storedState(_ json: JSON) -> RowState? {
        guard let frame = json["frame"].flatMap(storedRect), let content = json["contentFrame"].flatMap(storedRect),
              let alpha = json["alpha"]?.doubleValue, let hidden = json["hidden"]?.boolValue,
              let translate = json["translate"].flatMap(storedPoint), let scale = json["scale"]?.doubleValue else { return nil }
        return RowState(index: json["index"]?.int64Value.map { Int($0) }, frame: frame, contentFrame: content,
                        separatorFrame: json["separatorFrame"].flatMap(storedRect), alpha: alpha, hidden: hidden,
                        translate: translate, scale: scale)
    }
}
