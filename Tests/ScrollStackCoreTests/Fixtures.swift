import ScrollStackCore

/// A controller row with a fixed content length; `insets: .zero` makes the row exactly that long.
func fixedRow(_ id: String, _ length: Double = 44, insets: EdgeInsets? = nil, hidden: Bool = false, type: String = "VC", instance: String? = nil) -> Row {
    Row(id: id, content: .controller(ControllerDescriptor(type: type, instance: instance)), size: .fixed(length), insets: insets, hidden: hidden)
}

/// A stack of rows `r0…r(n−1)`, each exactly `length` long (zero insets), in a viewport.
func uniformStack(_ n: Int, length: Double = 50, viewport: Size = Size(width: 200, height: 100), axis: Axis = .vertical, spacing: Double = 0) throws -> ScrollStack {
    try ScrollStack(settings: StackSettings(axis: axis, viewport: viewport, spacing: spacing),
                    rows: (0..<n).map { fixedRow("r\($0)", length, insets: .zero) })
}

extension OperationResult {
    /// The events' names, for order checks.
    var names: [String] { events.map(\.name) }
    /// The visibility events only.
    var visibilityEvents: [StackEvent] {
        events.filter { if case .becameVisible = $0 { true } else if case .becameHidden = $0 { true } else { false } }
    }
}
