import CICU

/// ICU's line break iterator, opened once (opening one loads its rules) and pointed at each
/// paragraph in turn. Used only under its shard's lock.
final class LineBreaker: @unchecked Sendable {
    private let iterator: OpaquePointer?

    init() {
        var status = U_ZERO_ERROR
        let empty: [UInt16] = [0x20]
        let made = empty.withUnsafeBufferPointer { scrollstack_line_breaker($0.baseAddress, 1, &status) }
        iterator = status.rawValue <= 0 ? made : nil
    }

    deinit {
        if let iterator { scrollstack_close_breaker(iterator) }
    }

    /// The line break opportunities of `units`, ascending and ending with n: ICU's (UAX #14),
    /// plus the end of every run of spaces, as Chromium's line breaker has it (it breaks after
    /// spaces itself and asks ICU only between other characters; ICU 72's UAX #14 would keep
    /// e.g. `” (` together, LB15). O(n).
    func breaks(_ units: [UInt16]) -> [Int] {
        guard !units.isEmpty else { return [0] }
        var result: [Int] = []
        for i in 1..<units.count where units[i - 1] == 0x20 && units[i] != 0x20 { result.append(i) }
        if let iterator {
            units.withUnsafeBufferPointer { buffer in
                var status = U_ZERO_ERROR
                scrollstack_set_text(iterator, buffer.baseAddress, Int32(buffer.count), &status)
                guard status.rawValue <= 0 else { return }
                while true {
                    let position = scrollstack_next_break(iterator)
                    if position < 0 { break }
                    result.append(Int(position))
                }
                // Never leave the iterator pointing at the caller's buffer.
                let empty: [UInt16] = [0x20]
                empty.withUnsafeBufferPointer { scrollstack_set_text(iterator, $0.baseAddress, 1, &status) }
            }
        }
        result.append(units.count)
        return Array(Set(result)).sorted()
    }
}
