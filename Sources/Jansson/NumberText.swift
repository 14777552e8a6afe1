import CJansson

/// Numbers as jansson writes them, mostly without `vfprintf`.
///
/// Integers are `%lld`. A real is `%.{P}g` (P significant digits, trailing zeros dropped,
/// the exponent form when the decimal exponent is below −4 or at least P), then jansson's
/// touches: `.0` appended when there is neither a point nor an exponent, and the exponent
/// written without `+` or leading zeros (`1e-5`, `1e16`).
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

    /// The digits of `magnitude`, most significant first. O(digits).
    private static func appendDigits(of magnitude: UInt64, to bytes: inout [UInt8]) {
        var digits: (UInt64, UInt64, UInt64, UInt64) = (0, 0, 0, 0)  // 32 bytes: room for 20 digits
        var count = 0
        var rest = magnitude
        withUnsafeMutableBytes(of: &digits) { buffer in
            repeat {
                buffer[31 - count] = UInt8(ascii: "0") + UInt8(rest % 10)
                rest /= 10
                count += 1
            } while rest > 0
            bytes.append(contentsOf: UnsafeRawBufferPointer(rebasing: buffer[(32 - count)...]))
        }
    }

    /// A finite real with `precision` significant digits, as jansson writes it.
    static func appendReal(_ value: Double, precision: Int, to bytes: inout [UInt8]) {
        if precision <= 15, value != 0, let (digits, scale) = shortDecimal(value, precision: precision) {
            appendDecimal(digits, scale: scale, negative: value < 0, precision: precision, to: &bytes)
        } else {
            appendPrinted(value, precision: precision, to: &bytes)
        }
    }

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

    /// Writes the `count` (`digitCount(magnitude)`) digits of `magnitude` at `start`. O(digits).
    static func writeDigits(of magnitude: UInt64, count: Int, to start: UnsafeMutablePointer<UInt8>) {
        var rest = magnitude
        var at = count
        repeat {
            at -= 1
            start[at] = UInt8(ascii: "0") + UInt8(truncatingIfNeeded: rest % 10)
            rest /= 10
        } while at > 0
    }

    /// How many decimal digits `value` has (1 for 0).
    static func digitCount(_ value: UInt64) -> Int {
        var count = 1
        var rest = value
        while rest >= 10 {
            rest /= 10
            count += 1
        }
        return count
    }

    /// `digits · 10^-scale` in `%g`'s form with jansson's touches.
    private static func appendDecimal(_ digits: UInt64, scale: Int, negative: Bool, precision: Int, to bytes: inout [UInt8]) {
        var text: [UInt8] = []
        appendDigits(of: digits, to: &text)
        let count = text.count
        let exponent = count - 1 - scale
        if negative { bytes.append(UInt8(ascii: "-")) }
        if exponent < -4 || exponent >= precision {
            bytes.append(text[0])
            if count > 1 {
                bytes.append(UInt8(ascii: "."))
                bytes.append(contentsOf: text[1...])
            }
            bytes.append(UInt8(ascii: "e"))
            if exponent < 0 { bytes.append(UInt8(ascii: "-")) }
            appendDigits(of: UInt64(exponent.magnitude), to: &bytes)
        } else if scale <= 0 {
            bytes.append(contentsOf: text)
            bytes.append(contentsOf: repeatElement(UInt8(ascii: "0"), count: -scale))
            bytes.append(contentsOf: [UInt8(ascii: "."), UInt8(ascii: "0")])
        } else if count > scale {
            bytes.append(contentsOf: text[..<(count - scale)])
            bytes.append(UInt8(ascii: "."))
            bytes.append(contentsOf: text[(count - scale)...])
        } else {
            bytes.append(contentsOf: [UInt8(ascii: "0"), UInt8(ascii: ".")])
            bytes.append(contentsOf: repeatElement(UInt8(ascii: "0"), count: scale - count))
            bytes.append(contentsOf: text)
        }
    }

    /// jansson's own way: `snprintf("%.*g")`, then `.0` when there is neither a point nor an
    /// exponent, then the exponent without `+` and leading zeros.
    static func appendPrinted(_ value: Double, precision: Int, to bytes: inout [UInt8]) {
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
        bytes.append(contentsOf: text)
    }
}
