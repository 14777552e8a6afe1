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
            // FNV-1a: stable across processes (Swift's Hasher is seeded per process).
            var hash: UInt64 = 0xCBF2_9CE4_8422_2325
            for byte in "\(stack)#\(revision)#\(attempt)".utf8 {
                hash = (hash ^ UInt64(byte)) &* 0x100_0000_01B3
            }
            attempt += 1
            let id = "r-" + StackService.hex12(hash)
            if !isTaken(id) { return id }
        }
    }
}
