import CJansson

/// Numbers as jansson writes them, mostly without `vfprintf`.
///
/// Integers are `%lld`. A real is `%.{P}g` (P significant digits, trailing zeros dropped,
/// the exponent form when the decimal exponent is below −4 or at least P), then jansson's
/// touches: `.0` appended when there is neither a point nor an exponent, and the exponent
/// written without `+` or leading zeros (`1e-5`, `1e16`).
///
/// One departure from jansson: a precision of 15 or 16 is a floor, not a cap. A real whose
/// P-digit text would read back as another double (`0.1 + 0.2`, `1/3`, the largest double,
/// whose 15-digit text overflows to infinity) is written with the fewest digits up to 17
/// that read back as itself, so no real is ever changed by being written. Below 15 digits
/// rounding is what the caller asked for; at 17 every double reads back.
///
/// The fast path: for P ≤ 15, when a decimal D = N / 10^k with at most P significant digits
/// (N < 2^53, k ≤ 22, so that `Double(N) / 10^k` is one correctly rounded division) converts
/// back to the value exactly, D is the value rounded to P digits — the value lies within half
/// an ulp (≤ 1.2·10⁻¹⁶ relative) of D, far less than half the spacing of P-digit decimals
/// (≥ 5·10⁻¹⁶ relative) — so D's digits are `%.{P}g`'s. Other values (more digits than P,
/// zero, P > 15) go through `snprintf`, as jansson does.
enum NumberText {
    /// Powers of ten exactly representable as doubles.
    private static let powers: [Double] = (0...22).map { k in (0..<k).reduce(1.0) { partial, _ in partial * 10 } }

    /// Writes a finite real with `precision` significant digits, as jansson writes it (with
    /// more, up to 17, when `precision` is 15 or 16 and fewer would not read back as `value`),
    /// at `start`; returns how many bytes it wrote, at most `realRoom`.
    static func writeReal(_ value: Double, precision: Int, to start: UnsafeMutablePointer<UInt8>) -> Int {
        if precision <= 15, value != 0, let (digits, scale) = shortDecimal(value, precision: precision) {
            return writeDecimal(digits, scale: scale, negative: value < 0, precision: precision, to: start)
        }
        var digits = precision
        while digits < 17 {
            let count = writePrinted(value, precision: digits, to: start)
            if digits < 15 || readsBack(value, from: start, count: count) { return count }
            digits += 1
        }
        return writePrinted(value, precision: digits, to: start)
    }

    /// Whether the `count` bytes at `start` read back (`strtod`) as `value`. O(count).
    private static func readsBack(_ value: Double, from start: UnsafeMutablePointer<UInt8>, count: Int) -> Bool {
        withUnsafeTemporaryAllocation(of: CChar.self, capacity: count + 1) { text in
            for i in 0..<count { text[i] = CChar(bitPattern: start[i]) }
            text[count] = 0
            return strtod(text.baseAddress!, nil) == value
        }
    }

    /// The most bytes `writeReal` writes: `%.31g` of a negative real with a three-digit
    /// exponent is 38.
    static let realRoom = 48

    /// N and k with `|value| == N / 10^k` after one rounding, N without trailing zeros and with
    /// at most `precision` digits; nil when there is none with k ≤ 22 and N < 2^53. O(22).
    private static func shortDecimal(_ value: Double, precision: Int) -> (UInt64, Int)? {
        let magnitude = value.magnitude
        for k in 0..<powers.count {
            let scaled = magnitude * powers[k]
            guard scaled < 0x1p53 else { return nil }
            let n = scaled.rounded()
            guard n / powers[k] == magnitude, n >= 1 else { continue }
            var digits = UInt64(n)
            var scale = k
            while digits % 10 == 0 {
                digits /= 10
                scale -= 1
            }
            return digitCount(digits) <= precision ? (digits, scale) : nil
        }
        return nil
    }

    /// Writes the `count` (`digitCount(magnitude)`) digits of `magnitude` at `start`, two at a
    /// time. O(digits).
    static func writeDigits(of magnitude: UInt64, count: Int, to start: UnsafeMutablePointer<UInt8>) {
        let table = pairs.utf8Start
        var rest = magnitude
        var at = count
        while at >= 2 {
            let pair = Int(truncatingIfNeeded: rest % 100) * 2
            rest /= 100
            at -= 2
            start[at] = table[pair]
            start[at + 1] = table[pair + 1]
        }
        if at == 1 { start[0] = UInt8(ascii: "0") + UInt8(truncatingIfNeeded: rest) }
    }

    /// Writes `value` in decimal at `start`; returns how many digits it wrote (1 to 20).
    /// Values below 10⁸ (rows' positions and indexes) take a branch per group of four digits
    /// and no count of their digits beforehand; longer ones go through `writeDigits`.
    /// O(digits).
    @inline(__always)
    static func writeInteger(_ value: UInt64, to start: UnsafeMutablePointer<UInt8>) -> Int {
        if value < 10_000 { return writeUpTo4(value, to: start) }
        if value < 100_000_000 {
            let high = value / 10_000
            let count = writeUpTo4(high, to: start)
            write4(value - high * 10_000, to: start + count)
            return count + 4
        }
        let count = digitCount(value)
        writeDigits(of: value, count: count, to: start)
        return count
    }

    /// The two digits of `pair` (below 100), from the table of pairs. O(1).
    @inline(__always)
    private static func writePair(_ pair: UInt64, to start: UnsafeMutablePointer<UInt8>) {
        let table = pairs.utf8Start + Int(truncatingIfNeeded: pair) * 2
        start[0] = table[0]
        start[1] = table[1]
    }

    /// `value` (below 10⁴) in 1 to 4 digits; returns how many. O(1).
    @inline(__always)
    private static func writeUpTo4(_ value: UInt64, to start: UnsafeMutablePointer<UInt8>) -> Int {
        if value < 100 {
            if value < 10 {
                start[0] = UInt8(ascii: "0") + UInt8(truncatingIfNeeded: value)
                return 1
            }
            writePair(value, to: start)
            return 2
        }
        let high = value / 100
        if value < 1_000 {
            start[0] = UInt8(ascii: "0") + UInt8(truncatingIfNeeded: high)
            writePair(value - high * 100, to: start + 1)
            return 3
        }
        writePair(high, to: start)
        writePair(value - high * 100, to: start + 2)
        return 4
    }

    /// `value` (below 10⁴) in exactly 4 digits, leading zeros included. O(1).
    @inline(__always)
    private static func write4(_ value: UInt64, to start: UnsafeMutablePointer<UInt8>) {
        let high = value / 100
        writePair(high, to: start)
        writePair(value - high * 100, to: start + 2)
    }

    /// "00" to "99", two bytes each.
    private static let pairs: StaticString = "00010203040506070809101112131415161718192021222324252627282930313233343536373839404142434445464748495051525354555657585960616263646566676869707172737475767778798081828384858687888990919293949596979899"

    /// How many decimal digits `value` has (1 for 0): up to 8 digits by comparisons alone.
    /// O(digits / 2).
    static func digitCount(_ value: UInt64) -> Int {
        if value < 10_000 {
            return value < 100 ? (value < 10 ? 1 : 2) : (value < 1_000 ? 3 : 4)
        }
        if value < 100_000_000 {
            return value < 1_000_000 ? (value < 100_000 ? 5 : 6) : (value < 10_000_000 ? 7 : 8)
        }
        var count = 9
        var rest = value / 100_000_000
        while rest >= 100 {
            rest /= 100
            count += 2
        }
        return rest >= 10 ? count + 1 : count
    }

    /// `digits · 10^-scale` (`digits` of at most 15 digits, `scale` at most 22) in `%g`'s form
    /// with jansson's touches, written at `start`; returns the bytes written. O(digits).
    private static func writeDecimal(_ digits: UInt64, scale: Int, negative: Bool, precision: Int,
                                     to start: UnsafeMutablePointer<UInt8>) -> Int {
        var p = start
        if negative {
            p.pointee = UInt8(ascii: "-")
            p += 1
        }
        let count = digitCount(digits)
        let exponent = count - 1 - scale
        if exponent < -4 || exponent >= precision {
            writeDigits(of: digits, count: count, to: p)
            if count > 1 {
                insertPoint(at: 1, in: p, count: count)
                p += count + 1
            } else {
                p += 1
            }
            p.pointee = UInt8(ascii: "e")
            p += 1
            if exponent < 0 {
                p.pointee = UInt8(ascii: "-")
                p += 1
            }
            let exponentDigits = digitCount(UInt64(exponent.magnitude))
            writeDigits(of: UInt64(exponent.magnitude), count: exponentDigits, to: p)
            p += exponentDigits
        } else if scale <= 0 {
            writeDigits(of: digits, count: count, to: p)
            p += count
            p.update(repeating: UInt8(ascii: "0"), count: -scale)
            p += -scale
            p[0] = UInt8(ascii: ".")
            p[1] = UInt8(ascii: "0")
            p += 2
        } else if count > scale {
            writeDigits(of: digits, count: count, to: p)
            insertPoint(at: count - scale, in: p, count: count)
            p += count + 1
        } else {
            p[0] = UInt8(ascii: "0")
            p[1] = UInt8(ascii: ".")
            p += 2
            p.update(repeating: UInt8(ascii: "0"), count: scale - count)
            p += scale - count
            writeDigits(of: digits, count: count, to: p)
            p += count
        }
        return p - start
    }

    /// Moves the digits from `index` on one place right and puts a point at `index`. O(digits).
    private static func insertPoint(at index: Int, in digits: UnsafeMutablePointer<UInt8>, count: Int) {
        var j = count
        while j > index {
            digits[j] = digits[j - 1]
            j -= 1
        }
        digits[index] = UInt8(ascii: ".")
    }

    /// jansson's own way: `snprintf("%.*g")`, then `.0` when there is neither a point nor an
    /// exponent, then the exponent without `+` and leading zeros; written at `start`, returns
    /// the bytes written.
    private static func writePrinted(_ value: Double, precision: Int, to start: UnsafeMutablePointer<UInt8>) -> Int {
        var buffer = [CChar](repeating: 0, count: 64)
        let length = Int(cjansson_format_real(&buffer, buffer.count, Int32(precision), value))
        var text = buffer[..<length].map { UInt8(bitPattern: $0) }
        if !text.contains(UInt8(ascii: ".")) && !text.contains(UInt8(ascii: "e")) {
            text += [UInt8(ascii: "."), UInt8(ascii: "0")]
        }
        if let e = text.firstIndex(of: UInt8(ascii: "e")) {
            var start = e + 1
            if text[start] == UInt8(ascii: "-") { start += 1 }
            var end = e + 2
            while end < text.count && text[end] == UInt8(ascii: "0") { end += 1 }
            text.removeSubrange(start..<end)
        }
        text.withUnsafeBufferPointer { start.update(from: $0.baseAddress!, count: $0.count) }
        return text.count
    }
}
