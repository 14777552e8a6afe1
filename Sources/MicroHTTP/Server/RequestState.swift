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
