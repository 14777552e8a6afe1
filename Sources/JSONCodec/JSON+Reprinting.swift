#if canImport(Glibc)
import Glibc
#endif

extension JSON {
    /// The bytes of `JSON.parse(text).serialized(realPrecision:)` for a text in the form
    /// this module writes, read and written again in one pass with no tree: reals are read and
    /// written again with `realPrecision` digits; everything else is copied as it is.
    ///
    /// Answers nil, and the caller parses instead, for any text not in that form, where a copy
    /// could differ from what parsing and writing again gives or parsing would fail:
    /// whitespace; an escape other than the writer's own (`\"`, `\\`, `\b \f \n \r \t`,
    /// `\u00XX` with upper-case hex for the other control characters but NUL); invalid UTF-8;
    /// a control character, a leading zero, `-0`, an integer beyond 64 bits, a real beyond a
    /// double or written in 64 characters or more; an object with a repeated key or more than `reprintingMaxMembers` members;
    /// nesting deeper than `reprintingMaxDepth`; anything but one value.
    ///
    /// - Complexity: O(text), plus O(members²) per object for repeated keys.
    public static func reprinted(_ text: [UInt8], realPrecision: Int) -> [UInt8]? {
        let precision = JSONWriter(realPrecision: realPrecision).realPrecision
        return text.withUnsafeBufferPointer { reprint($0, precision: precision) }
    }

    /// The most members an object may have for `reprinted(_:realPrecision:)` to copy it.
    public static let reprintingMaxMembers = 64
    /// The deepest nesting `reprinted(_:realPrecision:)` copies.
    public static let reprintingMaxDepth = 256

    private enum Expecting { case value, valueOrClose, key, keyOrClose, colon, commaOrClose, end }

    private static func reprint(_ t: UnsafeBufferPointer<UInt8>, precision: Int) -> [UInt8]? {
        var out: [UInt8] = []
        out.reserveCapacity(t.count + 64)
        var copied = 0  // text before this index is in `out` already
        var containers: [UInt8] = []  // `{` or `[`, innermost last
        var keys: [Range<Int>] = []  // the keys of every open object, innermost last
        var firstKeys: [Int] = []  // where each open object's keys start in `keys`
        var expecting = Expecting.value
        var i = 0
        while i < t.count {
            let c = t[i]
            if c == UInt8(ascii: "}") || c == UInt8(ascii: "]") {
                let isObject = c == UInt8(ascii: "}")
                guard containers.last == (isObject ? UInt8(ascii: "{") : UInt8(ascii: "[")),
                      expecting == .commaOrClose || expecting == (isObject ? .keyOrClose : .valueOrClose) else { return nil }
                containers.removeLast()
                if isObject { keys.removeSubrange(firstKeys.removeLast()...) }
                i += 1
                expecting = containers.isEmpty ? .end : .commaOrClose
                continue
            }
            switch expecting {
            case .end:
                return nil
            case .colon:
                guard c == UInt8(ascii: ":") else { return nil }
                i += 1
                expecting = .value
            case .commaOrClose:
                guard c == UInt8(ascii: ",") else { return nil }
                i += 1
                expecting = containers.last == UInt8(ascii: "{") ? .key : .value
            case .key, .keyOrClose:
                guard c == UInt8(ascii: "\""), let end = stringEnd(t, from: i) else { return nil }
                let first = firstKeys[firstKeys.count - 1]
                guard keys.count - first < reprintingMaxMembers else { return nil }
                let key = UnsafeBufferPointer(rebasing: t[i..<end])
                for k in keys[first...] where k.count == key.count && UnsafeBufferPointer(rebasing: t[k]).elementsEqual(key) {
                    return nil
                }
                keys.append(i..<end)
                i = end
                expecting = .colon
            case .value, .valueOrClose:
                switch c {
                case UInt8(ascii: "{"), UInt8(ascii: "["):
                    guard containers.count < reprintingMaxDepth else { return nil }
                    containers.append(c)
                    i += 1
                    if c == UInt8(ascii: "{") {
                        firstKeys.append(keys.count)
                        expecting = .keyOrClose
                    } else {
                        expecting = .valueOrClose
                    }
                    continue
                case UInt8(ascii: "\""):
                    guard let end = stringEnd(t, from: i) else { return nil }
                    i = end
                case UInt8(ascii: "t"), UInt8(ascii: "f"), UInt8(ascii: "n"):
                    let literal: StaticString = c == UInt8(ascii: "t") ? "true" : c == UInt8(ascii: "f") ? "false" : "null"
                    let count = literal.utf8CodeUnitCount
                    guard i + count <= t.count,
                          UnsafeBufferPointer(rebasing: t[i..<(i + count)]).elementsEqual(UnsafeBufferPointer(start: literal.utf8Start, count: count))
                    else { return nil }
                    i += count
                case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
                    guard let (end, isReal) = numberEnd(t, from: i) else { return nil }
                    if isReal {
                        guard let value = real(t, i..<end) else { return nil }
                        out.append(contentsOf: UnsafeBufferPointer(rebasing: t[copied..<i]))
                        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: NumberText.realRoom) { room in
                            let count = NumberText.writeReal(value, precision: precision, to: room.baseAddress!)
                            out.append(contentsOf: UnsafeBufferPointer(rebasing: room[..<count]))
                        }
                        copied = end
                    } else {
                        // jansson reads `-0` as 0, and refuses what a 64-bit integer cannot hold.
                        let negative = c == UInt8(ascii: "-")
                        guard !(negative && t[i + 1] == UInt8(ascii: "0")), fitsInt64(t, (negative ? i + 1 : i)..<end, negative: negative) else { return nil }
                    }
                    i = end
                default:
                    return nil
                }
                expecting = containers.isEmpty ? .end : .commaOrClose
            }
        }
        guard expecting == .end else { return nil }
        out.append(contentsOf: UnsafeBufferPointer(rebasing: t[copied...]))
        return out
    }

    /// The index just past the string that opens at `start` (its quote), when every escape in
    /// it is one the writer makes and its text is valid UTF-8 with no control character.
    private static func stringEnd(_ t: UnsafeBufferPointer<UInt8>, from start: Int) -> Int? {
        var j = start + 1
        while j < t.count {
            let b = t[j]
            switch b {
            case UInt8(ascii: "\""):
                return j + 1
            case UInt8(ascii: "\\"):
                guard j + 1 < t.count else { return nil }
                switch t[j + 1] {
                case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "b"), UInt8(ascii: "f"), UInt8(ascii: "n"), UInt8(ascii: "r"), UInt8(ascii: "t"):
                    j += 2
                case UInt8(ascii: "u"):
                    guard j + 5 < t.count, t[j + 2] == UInt8(ascii: "0"), t[j + 3] == UInt8(ascii: "0"),
                          let high = upperHex(t[j + 4]), let low = upperHex(t[j + 5]), case let code = high << 4 | low,
                          code < 0x20, code != 0, ![0x08, 0x09, 0x0A, 0x0C, 0x0D].contains(code) else { return nil }
                    j += 6
                default:
                    return nil
                }
            case 0..<0x20:
                return nil
            case 0x20..<0x80:
                j += 1
            default:
                guard let count = utf8Count(t, at: j) else { return nil }
                j += count
            }
        }
        return nil
    }

    private static func upperHex(_ b: UInt8) -> UInt8? {
        switch b {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): b - UInt8(ascii: "0")
        case UInt8(ascii: "A")...UInt8(ascii: "F"): b - UInt8(ascii: "A") + 10
        default: nil
        }
    }

    /// The length of the UTF-8 sequence at `j` (whose lead byte is 0x80 or more), nil when it
    /// is not a valid one: no overlong form, no surrogate, nothing past U+10FFFF.
    private static func utf8Count(_ t: UnsafeBufferPointer<UInt8>, at j: Int) -> Int? {
        let lead = t[j]
        let count: Int
        var low: UInt8 = 0x80, high: UInt8 = 0xBF  // the second byte's range
        switch lead {
        case 0xC2...0xDF: count = 2
        case 0xE0: count = 3; low = 0xA0
        case 0xE1...0xEC, 0xEE...0xEF: count = 3
        case 0xED: count = 3; high = 0x9F
        case 0xF0: count = 4; low = 0x90
        case 0xF1...0xF3: count = 4
        case 0xF4: count = 4; high = 0x8F
        default: return nil
        }
        guard j + count <= t.count, (low...high).contains(t[j + 1]) else { return nil }
        for k in (j + 2)..<(j + count) where t[k] & 0xC0 != 0x80 { return nil }
        return count
    }

    /// The index just past the number that starts at `start`, and whether it is a real (has a
    /// fraction or an exponent); nil when it is not JSON's number grammar.
    private static func numberEnd(_ t: UnsafeBufferPointer<UInt8>, from start: Int) -> (Int, Bool)? {
        func isDigit(_ k: Int) -> Bool { k < t.count && (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(t[k]) }
        var j = start
        if t[j] == UInt8(ascii: "-") { j += 1 }
        guard isDigit(j) else { return nil }
        if t[j] == UInt8(ascii: "0") { j += 1 } else { while isDigit(j) { j += 1 } }
        var isReal = false
        if j < t.count, t[j] == UInt8(ascii: ".") {
            j += 1
            guard isDigit(j) else { return nil }
            while isDigit(j) { j += 1 }
            isReal = true
        }
        if j < t.count, t[j] == UInt8(ascii: "e") || t[j] == UInt8(ascii: "E") {
            j += 1
            if j < t.count, t[j] == UInt8(ascii: "+") || t[j] == UInt8(ascii: "-") { j += 1 }
            guard isDigit(j) else { return nil }
            while isDigit(j) { j += 1 }
            isReal = true
        }
        return (j, isReal)
    }

    /// Whether the decimal `digits` (no sign, no leading zero), negated when `negative`, is
    /// within `Int64`.
    private static func fitsInt64(_ t: UnsafeBufferPointer<UInt8>, _ digits: Range<Int>, negative: Bool) -> Bool {
        let limit: StaticString = negative ? "9223372036854775808" : "9223372036854775807"
        guard digits.count == limit.utf8CodeUnitCount else { return digits.count < limit.utf8CodeUnitCount }
        // Equal lengths: the digits are within the limit unless the limit precedes them.
        return !UnsafeBufferPointer(start: limit.utf8Start, count: limit.utf8CodeUnitCount).lexicographicallyPrecedes(UnsafeBufferPointer(rebasing: t[digits]))
    }

    /// The real a number token reads as (`strtod`, as jansson reads it), nil beyond a double.
    private static func real(_ t: UnsafeBufferPointer<UInt8>, _ token: Range<Int>) -> Double? {
        guard token.count < 64 else { return nil }
        let value = withUnsafeTemporaryAllocation(of: CChar.self, capacity: token.count + 1) { buffer in
            for (k, byte) in t[token].enumerated() { buffer[k] = CChar(bitPattern: byte) }
            buffer[token.count] = 0
            return strtod(buffer.baseAddress!, nil)
        }
        return value.isFinite ? value : nil
    }
}
