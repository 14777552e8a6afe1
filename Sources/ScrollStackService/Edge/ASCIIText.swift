/// Case-insensitive searches in header values over their UTF-8 bytes, folding only ASCII
/// letters: the media types and codings looked for are ASCII, and a per-request `lowercased()`,
/// `split` or `String` search costs thousands of instructions (Docs/Benchmarks.md).
enum ASCIIText {
    /// Whether `text` contains `needle` (lower-case ASCII), ASCII letters compared without case.
    /// O(|text| · |needle|).
    static func contains(_ text: String, lowercased needle: StaticString) -> Bool {
        var text = text
        return text.withUTF8 { text in
            needle.withUTF8Buffer { needle in
                guard needle.count <= text.count else { return false }
                for start in 0...(text.count - needle.count) where equal(text[start..<(start + needle.count)], needle) { return true }
                return false
            }
        }
    }

    /// Whether `value` (with `upToParameters`, only what comes before its first `;`), without
    /// surrounding spaces and tabs, is one of `candidates` (lower-case ASCII), ASCII letters
    /// compared without case.
    static func token(of value: some StringProtocol, isOneOf candidates: [StaticString], upToParameters: Bool = false) -> Bool {
        var value = String(value)
        return value.withUTF8 { bytes in
            var start = 0
            var end = upToParameters ? (bytes.firstIndex(of: UInt8(ascii: ";")) ?? bytes.count) : bytes.count
            while start < end && isBlank(bytes[start]) { start += 1 }
            while end > start && isBlank(bytes[end - 1]) { end -= 1 }
            return candidates.contains { candidate in candidate.withUTF8Buffer { equal(bytes[start..<end], $0) } }
        }
    }

    /// `byte` with ASCII upper-case letters lowered.
    @inline(__always)
    static func lower(_ byte: UInt8) -> UInt8 {
        byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z") ? byte | 0x20 : byte
    }

    private static func isBlank(_ byte: UInt8) -> Bool {
        byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t")
    }

    /// Whether `text` is `lowered` (lower-case ASCII) with ASCII letters compared without case.
    private static func equal(_ text: Slice<UnsafeBufferPointer<UInt8>>, _ lowered: UnsafeBufferPointer<UInt8>) -> Bool {
        guard text.count == lowered.count else { return false }
        var i = text.startIndex
        for expected in lowered {
            if lower(text[i]) != expected { return false }
            i += 1
        }
        return true
    }
}
