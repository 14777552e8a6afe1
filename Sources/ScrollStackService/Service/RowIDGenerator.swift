/// Generates the ids of the rows a request adds without one: `r-` and 12 hex digits of the
/// FNV-1a hash of `"<stack>#<revision>#<attempt>"`, attempts counted from 0 across the whole
/// request, skipping ids that are taken. So the ids depend only on the stack, the revision
/// being made and the rows before (a replay of the journal makes the same ones), and they are
/// the ids the earlier generator made, which restarted its count for every row.
///
/// - Complexity: O(1) per id plus O(1) per taken id skipped: the count goes on from the
///   previous row's instead of starting again from 0 (which made k id-less rows cost O(k²)).
struct RowIDGenerator {
    let stack: String
    let revision: Int
    private var attempt = 0

    init(stack: String, revision: Int) {
        self.stack = stack
        self.revision = revision
    }

    /// The next id for which `isTaken` is false.
    mutating func next(isTaken: (String) -> Bool) -> String {
        while true {
            // FNV-1a: stable across processes (Swift's Hasher is seeded per process), over the
            // bytes of `"<stack>#<revision>#<attempt>"`, fed in without making that string.
            var hash: UInt64 = 0xCBF2_9CE4_8422_2325
            for byte in stack.utf8 { hash = Self.fnv(hash, byte) }
            hash = Self.fnv(hash, UInt8(ascii: "#"))
            hash = Self.fnv(hash, decimal: revision)
            hash = Self.fnv(hash, UInt8(ascii: "#"))
            hash = Self.fnv(hash, decimal: attempt)
            attempt += 1
            let id = StackService.hex12(hash, after: UInt8(ascii: "r"))
            if !isTaken(id) { return id }
        }
    }

    private static func fnv(_ hash: UInt64, _ byte: UInt8) -> UInt64 {
        (hash ^ UInt64(byte)) &* 0x100_0000_01B3
    }

    /// `hash` after the bytes of `value` in decimal, as `String(value)` spells it.
    private static func fnv(_ hash: UInt64, decimal value: Int) -> UInt64 {
        var hash = hash
        if value < 0 { hash = fnv(hash, UInt8(ascii: "-")) }
        var magnitude = value.magnitude
        var divisor: UInt = 1
        while magnitude / divisor >= 10 { divisor *= 10 }
        while divisor > 0 {
            hash = fnv(hash, UInt8(ascii: "0") + UInt8(magnitude / divisor))
            magnitude %= divisor
            divisor /= 10
        }
        return hash
    }
}
