#if canImport(Glibc)
import Glibc
#endif

/// What the server keeps about one request between libmicrohttpd's calls.
///
/// Created by the URI callback as soon as the request line is parsed (it is the only place
/// that sees the target before libmicrohttpd splits and percent-decodes it in place), handed
/// to every access-handler call through `*con_cls`, and released by the completion callback,
/// which libmicrohttpd calls for every request the URI callback saw, answered or not.
///
/// Only the thread serving the connection uses it, through those callbacks, one call at a
/// time; its members skip the runtime's dynamic exclusivity checks (`@exclusivity(unchecked)`),
/// which cost a thread-local lookup per access, several on every request.
final class RequestState {
    /// The request target exactly as received: path and, if any, `?` and the query string.
    let rawTarget: String
    /// The target's length in bytes when the URI callback saw it: up to its first NUL.
    let targetLength: Int
    /// Monotonic nanoseconds when the request line was parsed.
    let started: UInt64
    /// Set on the access handler's first call (headers complete).
    @exclusivity(unchecked) var method = ""
    @exclusivity(unchecked) var path = ""
    /// Header fields in order, names lowered (read on the first call).
    @exclusivity(unchecked) var headers: [(name: String, value: String)] = []
    /// Set when the request is refused once read whole (a `%00` in the path): its body is
    /// dropped, and this is the answer.
    @exclusivity(unchecked) var refusal: HTTPError?
    /// The access handler has been called at least once.
    @exclusivity(unchecked) var seenHeaders = false
    @exclusivity(unchecked) var body: [UInt8] = []
    /// The most bytes the body may hold (`HTTPServer.bodyLimit`, else `maxBodyBytes`).
    @exclusivity(unchecked) var bodyLimit = 0
    /// A response was queued (or is being produced): further calls do nothing.
    @exclusivity(unchecked) var answered = false
    /// The body went over the limit and was answered 413 in its middle: what follows is
    /// drained and dropped, then the connection closed.
    @exclusivity(unchecked) var rejected = false
    /// Bytes discarded after the body went over the limit.
    @exclusivity(unchecked) var discarded = 0
    /// The answer the handler deferred, until it is sent or cancelled, and the request it
    /// answers (for the request observer).
    @exclusivity(unchecked) var deferred: DeferredResponse?
    @exclusivity(unchecked) var deferredRequest: HTTPRequest?

    init(target: UnsafePointer<CChar>?, started: UInt64) {
        let length = target.map { strlen($0) } ?? 0
        rawTarget = target.map { String(decoding: UnsafeRawBufferPointer(start: $0, count: length), as: UTF8.self) } ?? "/"
        targetLength = length
        self.started = started
    }

    /// Whether the path (not the query) holds `%00`.
    var pathHoldsEncodedNUL: Bool {
        var target = rawTarget
        return target.withUTF8 { bytes in
            var previous: (UInt8, UInt8) = (0, 0)
            for byte in bytes {
                if byte == UInt8(ascii: "?") { return false }
                if previous == (UInt8(ascii: "%"), UInt8(ascii: "0")) && byte == UInt8(ascii: "0") { return true }
                previous = (previous.1, byte)
            }
            return false
        }
    }

    /// The query parameters, parsed here rather than by libmicrohttpd (the URI callback hides
    /// the query from it: it would keep a record of each parameter in the connection's memory,
    /// and when they do not fit, about 500 in the default 32 KiB, it drops the connection
    /// unanswered). Split at `&` (empty pieces skipped), then at the first `=` (a parameter
    /// without one has the value ""); `+` is a space and `%HH` is decoded, except `%00`, which
    /// stays as it is, as libmicrohttpd's unescaping did here. O(target).
    var query: [(name: String, value: String)] {
        var target = rawTarget
        return target.withUTF8 { bytes in
            guard let question = bytes.firstIndex(of: UInt8(ascii: "?")) else { return [] }
            var pairs: [(name: String, value: String)] = []
            for piece in bytes[(question + 1)...].split(separator: UInt8(ascii: "&"), omittingEmptySubsequences: true) {
                if let equals = piece.firstIndex(of: UInt8(ascii: "=")) {
                    pairs.append((Self.decodeQuery(piece[..<equals]), Self.decodeQuery(piece[(equals + 1)...])))
                } else {
                    pairs.append((Self.decodeQuery(piece), ""))
                }
            }
            return pairs
        }
    }

    /// A query name or value decoded: `+` is a space, `%HH` its byte, except `%00`.
    private static func decodeQuery(_ bytes: Slice<UnsafeBufferPointer<UInt8>>) -> String {
        guard bytes.contains(where: { $0 == UInt8(ascii: "%") || $0 == UInt8(ascii: "+") }) else {
            return String(decoding: bytes, as: UTF8.self)
        }
        func hex(_ byte: UInt8) -> UInt8? {
            switch byte {
            case 48...57: byte - 48
            case 65...70: byte - 55
            case 97...102: byte - 87
            default: nil
            }
        }
        var decoded: [UInt8] = []
        decoded.reserveCapacity(bytes.count)
        var index = bytes.startIndex
        while index < bytes.endIndex {
            let byte = bytes[index]
            if byte == UInt8(ascii: "%"), index + 2 < bytes.endIndex, let high = hex(bytes[index + 1]), let low = hex(bytes[index + 2]), high | low != 0 {
                decoded.append(high << 4 | low)
                index += 3
            } else {
                decoded.append(byte == UInt8(ascii: "+") ? 0x20 : byte)
                index += 1
            }
        }
        return String(decoding: decoded, as: UTF8.self)
    }

    /// The raw target without its query string. Read on its bytes (`String.UTF8View`'s
    /// `firstIndex` walks by index, about 25 instructions a byte). O(target).
    var rawPath: String {
        var target = rawTarget
        return target.withUTF8 { bytes in
            guard let question = bytes.firstIndex(of: UInt8(ascii: "?")) else { return rawTarget }
            return String(decoding: UnsafeBufferPointer(rebasing: bytes[..<question]), as: UTF8.self)
        }
    }
}
