/// The hash of a row id for `IDIndex`: a keyed multiply-and-fold hash of the id's UTF-8
/// bytes in its canonical (NFC) form, with keys drawn from the system's random source once
/// per process, so colliding ids cannot be chosen ahead of time.
///
/// It agrees with `String`'s `==`, which compares canonical equivalence: an id of ASCII
/// bytes is its own NFC form and is hashed as it is stored; any other id is hashed over its
/// NFC code units, so "\u{212A}" (KELVIN SIGN) hashes as "K" and "e\u{301}" as "é". Swift's
/// own `Hasher` (SipHash-1-3) costs about 250 instructions for a short id; this about 40.
///
/// - Complexity: O(length of the id); an id that is not ASCII also allocates its NFC form.
enum IDHash {
    /// The keys, drawn once per process.
    private static let keys: (UInt64, UInt64, UInt64) = {
        var generator = SystemRandomNumberGenerator()
        return (generator.next(), generator.next(), generator.next())
    }()

    /// The 32-bit hash of `id`.
    static func hash(_ id: String) -> UInt32 {
        let stored = id.utf8.withContiguousStorageIfAvailable { bytes in fold(bytes) }
        if let stored, stored.isASCII { return stored.hash }
        return id._nfcCodeUnits.withUnsafeBufferPointer { fold($0).hash }
    }

    /// The 128-bit product of `a` and `b`, its halves folded together.
    @inline(__always)
    private static func mix(_ a: UInt64, _ b: UInt64) -> UInt64 {
        let product = a.multipliedFullWidth(by: b)
        return product.high ^ product.low
    }

    /// The bytes folded into the keyed state 16 at a time (the last 16 overlapping the ones
    /// before when the count is not a multiple of 16; 4 to 16 bytes read as two overlapping
    /// words; fewer as three of them), the count mixed in first and last, and whether every
    /// byte was ASCII (each is read at least once). O(count).
    private static func fold(_ bytes: UnsafeBufferPointer<UInt8>) -> (hash: UInt32, isASCII: Bool) {
        let (k0, k1, k2) = keys
        let n = bytes.count
        var state = k2 ^ UInt64(n)
        var high: UInt64 = 0
        if n <= 16 {
            var a: UInt64 = 0, b: UInt64 = 0
            if n > 0 {
                let p = UnsafeRawPointer(bytes.baseAddress!)
                if n >= 8 {
                    a = p.loadUnaligned(as: UInt64.self)
                    b = p.loadUnaligned(fromByteOffset: n - 8, as: UInt64.self)
                } else if n >= 4 {
                    a = UInt64(p.loadUnaligned(as: UInt32.self))
                    b = UInt64(p.loadUnaligned(fromByteOffset: n - 4, as: UInt32.self))
                } else {
                    a = UInt64(bytes[0]) << 16 | UInt64(bytes[n >> 1]) << 8 | UInt64(bytes[n - 1])
                }
            }
            high |= a | b
            state = mix(a ^ k0, b ^ state ^ k1)
        } else {
            let p = UnsafeRawPointer(bytes.baseAddress!)
            var i = 0
            while n - i > 16 {
                let a = p.loadUnaligned(fromByteOffset: i, as: UInt64.self)
                let b = p.loadUnaligned(fromByteOffset: i + 8, as: UInt64.self)
                high |= a | b
                state = mix(a ^ k0, b ^ state ^ k1)
                i += 16
            }
            let a = p.loadUnaligned(fromByteOffset: n - 16, as: UInt64.self)
            let b = p.loadUnaligned(fromByteOffset: n - 8, as: UInt64.self)
            high |= a | b
            state = mix(a ^ k0, b ^ state ^ k1)
        }
        let h = mix(state ^ k1, UInt64(n) ^ k0)
        return (UInt32(truncatingIfNeeded: h ^ (h >> 32)), high & 0x8080_8080_8080_8080 == 0)
    }
}
