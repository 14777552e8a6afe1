import ScrollStackTransitions

/// What the journal keeps in a plan's place for a change whose answer did not carry its plan:
/// what the plan is computed from besides the journal itself. The plan of revision r is a
/// function of the state at r − 1 and the operation of r (both journaled), the capture's
/// targets and the timing, so `GET …/transitions/r` computes it again from this
/// (`StackService.derivedPlan`) and answers the bytes a plan kept whole would have
/// (Semantics.md, "Plans computed when read").
///
/// Bytes: `marker` (0x00: no kept plan starts with it, those are JSON objects, `{`), version 1,
/// animated (0 or 1), the timing's duration, delay, damping and initial velocity
/// (`ByteWriter` doubles, exact), then 0 (no targets: the capture keeps the whole stack) or 1,
/// a varint count and each target's id (`ByteWriter` strings).
struct PlanRecipe: Equatable {
    var animated: Bool
    var timing: AnimationTiming
    /// The ids of the rows the change named, in order; nil when the capture kept the whole stack.
    var targets: [String]?

    static let marker: UInt8 = 0
    static let version: UInt8 = 1

    /// Whether kept plan bytes are a recipe (else a plan kept whole, as JSON text).
    static func isRecipe(_ bytes: [UInt8]) -> Bool { bytes.first == marker }

    var encoded: [UInt8] {
        var w = ByteWriter(capacity: 40 + (targets?.reduce(0) { $0 + 2 + $1.utf8.count } ?? 0))
        w.byte(Self.marker)
        w.byte(Self.version)
        w.byte(animated ? 1 : 0)
        for value in [timing.duration, timing.delay, timing.damping, timing.initialVelocity] { w.double(value) }
        if let targets {
            w.byte(1)
            w.varint(targets.count)
            for id in targets { w.string(id) }
        } else {
            w.byte(0)
        }
        return w.bytes
    }

    /// The recipe `bytes` hold. - Throws: `journalUnreadable` naming `what`, for a version
    /// this server does not know (a newer one wrote it) or damaged bytes.
    static func decode(_ bytes: [UInt8], what: String) throws(APIError) -> PlanRecipe {
        try bytes.withUnsafeBytes { buffer in
            Result { () throws(APIError) -> PlanRecipe in
                var r = ByteReader(buffer, what: what)
                guard try r.byte() == marker else { throw r.damaged("it is not a plan recipe") }
                let version = try r.byte()
                guard version == Self.version else { throw r.damaged("plan recipe version \(version) is unknown (a newer server wrote it?)") }
                let animated = try r.byte() != 0
                let timing = AnimationTiming(duration: try r.double(), delay: try r.double(), damping: try r.double(),
                                             initialVelocity: try r.double())
                var targets: [String]?
                switch try r.byte() {
                case 0: targets = nil
                case 1:
                    let count = try r.varint()
                    guard count <= buffer.count else { throw r.damaged("\(count) targets in \(buffer.count) bytes") }
                    var ids: [String] = []
                    ids.reserveCapacity(count)
                    for _ in 0..<count { ids.append(try r.string()) }
                    targets = ids
                case let tag: throw r.damaged("plan recipe targets tag \(tag) is unknown")
                }
                guard r.isAtEnd else { throw r.damaged("bytes follow the plan recipe") }
                return PlanRecipe(animated: animated, timing: timing, targets: targets)
            }
        }.get()
    }
}
