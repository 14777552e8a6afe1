import CMicroHTTPD

#if canImport(Glibc)
import Glibc
#endif

/// A request head as libmicrohttpd left it in its read buffer, checked byte for byte.
///
/// libmicrohttpd 0.9.75 hands the method, the target, and each header name and value over as
/// C strings, so a raw NUL byte would silently cut one short (`DELETE /stacks/victim\0/rows/x`
/// would reach `/stacks/victim`). It parses in place, in one buffer: it ends the method, the
/// target and each header name by overwriting the space or colon after it with a NUL, and each
/// line by overwriting its CR and LF. So the head is clean exactly when every NUL in the buffer
/// is one of those: between the pieces libmicrohttpd reports there must be nothing but the
/// bytes it overwrote (and the spaces it skipped). A NUL anywhere else, a header line folded
/// over two lines (obsolete, RFC 9112 §5.2), or a line starting with NUL (which libmicrohttpd
/// would take for the blank line ending the head) breaks that, and the request is refused.
///
/// - Complexity: O(head size).
struct RequestHead {
    /// Header fields in order, names lower-cased (ASCII letters: a name is a token).
    let headers: [(name: String, value: String)]

    /// One header field as libmicrohttpd reports it: pointers into the head and lengths.
    struct Field {
        let name: UnsafePointer<CChar>
        let nameLength: Int
        let value: UnsafePointer<CChar>
        let valueLength: Int

        /// The name as received.
        var receivedName: String {
            String(decoding: UnsafeRawBufferPointer(start: name, count: nameLength), as: UTF8.self)
        }

        /// The name with ASCII letters lowered, made from its bytes in one pass.
        var loweredName: String {
            let bytes = UnsafeRawBufferPointer(start: name, count: nameLength)
            guard bytes.contains(where: { $0 >= UInt8(ascii: "A") && $0 <= UInt8(ascii: "Z") }) else {
                return String(decoding: bytes, as: UTF8.self)
            }
            return String(unsafeUninitializedCapacity: nameLength) { buffer in
                for i in 0..<nameLength {
                    let byte = bytes[i]
                    buffer[i] = byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z") ? byte | 0x20 : byte
                }
                return nameLength
            }
        }
    }

    /// Checks the head of the request on `connection` whose method, target and version
    /// libmicrohttpd passed to the access handler; `targetLength` is the target's length when
    /// the URI callback saw it (before libmicrohttpd decoded it in place).
    ///
    /// - Throws: 400 `bad_request` naming what is wrong (and the header, if one is at fault).
    init(connection: OpaquePointer, method: UnsafePointer<CChar>, target: UnsafePointer<CChar>, version: UnsafePointer<CChar>,
         targetLength: Int) throws(HTTPError) {
        var fields: [Field] = []
        fields.reserveCapacity(16)  // one allocation for the fields of most requests, not one per doubling
        _ = withUnsafeMutablePointer(to: &fields) { MHD_get_connection_values_n(connection, .HEADER_KIND, collectField, $0) }
        let head = UnsafeRawPointer(method)
        let size = cmhd_request_head_size(connection)
        func byte(_ offset: Int) -> UInt8 { head.load(fromByteOffset: offset, as: UInt8.self) }
        func offset(_ pointer: UnsafePointer<CChar>) -> Int { head.distance(to: UnsafeRawPointer(pointer)) }
        func only(_ range: Range<Int>, _ allowed: (UInt8) -> Bool) -> Bool { range.allSatisfy { allowed(byte($0)) } }

        // The request line: method, NUL (was a space), skipped spaces, target, NUL, version.
        let targetStart = offset(target)
        let versionStart = offset(version)
        guard size > 0, targetStart > 0, versionStart > targetStart, versionStart + 8 < size else {
            throw .badRequest("the request head is malformed")
        }
        let methodLength = strlen(method)
        guard methodLength < targetStart, only(methodLength + 1..<targetStart, { $0 == 0x20 }) else {
            throw .badRequest("the method holds a NUL byte (0x00)")
        }
        guard methodLength > 0, only(0..<methodLength, Self.isTokenByte) else {
            throw .badRequest("the method is not an HTTP token")
        }
        guard targetLength == versionStart - 1 - targetStart else {
            throw .badRequest("the request target holds a NUL byte (0x00)")
        }

        // Each field: line break (1 or 2 NULs), name, NUL (was the colon), spaces, value.
        var cursor = versionStart + 8
        var previous: Field?
        var headers: [(name: String, value: String)] = []
        headers.reserveCapacity(fields.count)
        for field in fields {
            let nameStart = offset(field.name)
            let valueStart = offset(field.value)
            let nameEnd = nameStart + field.nameLength
            let gap = nameStart - cursor
            guard (1...2).contains(gap), nameEnd < valueStart, valueStart + field.valueLength < size,
                  only(cursor..<nameStart, { $0 == 0 }), byte(nameEnd) == 0,
                  only(nameEnd + 1..<valueStart, { $0 == 0x20 || $0 == 0x09 }) else {
                throw previous.map { .badRequest("the header \($0.receivedName) holds a NUL byte (0x00) or is folded over two lines", field: $0.receivedName) }
                    ?? .badRequest("the request line is followed by a NUL byte (0x00) or a folded line")
            }
            guard field.nameLength > 0, only(nameStart..<nameEnd, Self.isTokenByte) else {
                throw .badRequest("the header name \"\(HTTPRequest.printable(field.receivedName))\" is not an HTTP token")
            }
            let value = UnsafeRawBufferPointer(start: field.value, count: field.valueLength)
            if let control = value.first(where: { ($0 < 0x20 && $0 != 0x09) || $0 == 0x7F }) {
                throw .badRequest("the header \(field.receivedName) holds the control byte 0x\(Self.hex(control))", field: field.receivedName)
            }
            headers.append((field.loweredName, String(decoding: value, as: UTF8.self)))
            previous = field
            cursor = valueStart + field.valueLength
        }
        // The last line break and the blank line: 2 to 4 NULs, up to the end of the head.
        guard (2...4).contains(size - cursor), only(cursor..<size, { $0 == 0 }) else {
            throw previous.map { .badRequest("the header \($0.receivedName) holds a NUL byte (0x00), or a line starts with one", field: $0.receivedName) }
                ?? .badRequest("the request line is followed by a NUL byte (0x00)")
        }
        self.headers = headers
    }

    /// RFC 9110 §5.6.2 `tchar`: what methods and header names are made of.
    static func isTokenByte(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
             UInt8(ascii: "!"), UInt8(ascii: "#"), UInt8(ascii: "$"), UInt8(ascii: "%"), UInt8(ascii: "&"), UInt8(ascii: "'"),
             UInt8(ascii: "*"), UInt8(ascii: "+"), UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "^"), UInt8(ascii: "_"),
             UInt8(ascii: "`"), UInt8(ascii: "|"), UInt8(ascii: "~"): true
        default: false
        }
    }

    /// Two upper-case hex digits.
    static func hex(_ byte: UInt8) -> String {
        let digits = String(byte, radix: 16, uppercase: true)
        return digits.count == 1 ? "0" + digits : digits
    }

}

/// Collects header fields with their lengths (libmicrohttpd's `_n` iterator).
private let collectField: MHD_KeyValueIteratorN = { cls, _, key, keySize, value, valueSize in
    guard let cls, let key, let value else { return .YES }
    cls.assumingMemoryBound(to: [RequestHead.Field].self).pointee
        .append(RequestHead.Field(name: key, nameLength: keySize, value: value, valueLength: valueSize))
    return .YES
}
