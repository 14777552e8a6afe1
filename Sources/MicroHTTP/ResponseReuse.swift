import CMicroHTTPD
import Synchronization

/// libmicrohttpd responses made once and queued again for every answer that is the same
/// status, the same header fields and the same body: no copy of the body, no allocation and
/// `strdup` per header field, no response created and destroyed per request. libmicrohttpd
/// allows a response to be queued on any number of connections (it counts its users).
///
/// Attach one to a response that will be sent many times (`HTTPResponse.reuse`, for an answer
/// kept for repeated reads); every copy shares it. A response sent is matched against what
/// was made: the status, the fields (names and values, in order) and the body's *storage*,
/// which the reuse keeps alive, so equal storage is equal bytes. Whatever differs (a field
/// added for this request, another encoding, `Connection: close` while stopping) is sent as
/// usual, and up to `variants` such versions are made and kept too (a gzip client and an
/// identity one, say). Nothing is made on the first send of a body under `madeAtOnce` bytes:
/// an answer sent only once (kept, never asked again) costs what any answer costs and holds
/// no libmicrohttpd response. A bigger body is made at once, since sending it as usual would
/// copy it (a kept full layout of 100,000 rows is 24.7 MB).
///
/// A libmicrohttpd response made here holds the body it sends until libmicrohttpd is done
/// with it, so dropping the reuse (the answer forgotten) while a connection still sends it is
/// safe: libmicrohttpd releases the body when its last user finishes.
public final class ResponseReuse: Sendable {
    /// How many versions of one answer are made at most.
    public static let variants = 4

    /// The smallest body made on its first send (64 KiB): below it, a copy costs less than
    /// a libmicrohttpd response kept for an answer that may never be asked again.
    public static let madeAtOnce = 64 << 10

    /// libmicrohttpd's response; its functions used here are thread-safe.
    private struct Made: @unchecked Sendable {
        let status: Int
        let headers: [(name: String, value: String)]
        let body: [UInt8]
        let pointer: OpaquePointer
    }

    /// The versions made, and whether a response was sent through this reuse before.
    private let made = Mutex<(versions: [Made], sentOnce: Bool)>(([], false))

    /// A reuse with nothing made yet (`libmicrohttpdResponse` says when each version is made).
    public init() {}

    deinit {
        made.withLock { made in
            for version in made.versions { MHD_destroy_response(version.pointer) }
        }
    }

    /// The libmicrohttpd response for `response`, made now if it is a new version and there
    /// is room for it; nil on the first send of a body under `madeAtOnce` bytes and when there
    /// is no room (send it as usual). The pointer is valid for as long as this reuse is alive
    /// (the caller holds `response`, which holds it).
    ///
    /// - Complexity: O(versions × header fields) comparisons; making a version O(header
    ///   fields), its body is not copied.
    func libmicrohttpdResponse(for response: HTTPResponse) -> OpaquePointer? {
        made.withLock { made in
            let firstSend = !made.sentOnce
            made.sentOnce = true
            if firstSend && response.body.count < Self.madeAtOnce { return nil }
            if let version = made.versions.first(where: { Self.matches($0, response) }) { return version.pointer }
            guard made.versions.count < Self.variants, let pointer = Self.make(response) else { return nil }
            made.versions.append(Made(status: response.status, headers: response.headers, body: response.body, pointer: pointer))
            return pointer
        }
    }

    /// How many versions were made (for tests).
    var versionsMade: Int { made.withLock { $0.versions.count } }

    private static func matches(_ version: Made, _ response: HTTPResponse) -> Bool {
        guard version.status == response.status, version.body.count == response.body.count,
              version.headers.count == response.headers.count,
              version.body.withUnsafeBufferPointer({ a in response.body.withUnsafeBufferPointer { $0.baseAddress == a.baseAddress } })
        else { return false }
        for (a, b) in zip(version.headers, response.headers) where a.name != b.name || a.value != b.value { return false }
        return true
    }

    /// A libmicrohttpd response over `response.body`'s own storage, which it keeps (retained,
    /// released by libmicrohttpd's free callback) for as long as it may send it.
    private static func make(_ response: HTTPResponse) -> OpaquePointer? {
        let body = BodyStorage(response.body)
        let retained = Unmanaged.passRetained(body).toOpaque()
        let pointer = body.bytes.withUnsafeBytes {
            // The storage does not move: `body` owns it, and nothing writes to it.
            MHD_create_response_from_buffer_with_free_callback_cls($0.count, UnsafeMutableRawPointer(mutating: $0.baseAddress),
                                                                   bodyReleased, retained)
        }
        guard let pointer else {
            Unmanaged<BodyStorage>.fromOpaque(retained).release()
            return nil
        }
        addHeaders(response.headers, to: pointer)
        return pointer
    }
}

/// A body kept alive for libmicrohttpd.
private final class BodyStorage: @unchecked Sendable {
    let bytes: [UInt8]
    init(_ bytes: [UInt8]) { self.bytes = bytes }
}

/// libmicrohttpd no longer sends the body: release it.
private let bodyReleased: MHD_ContentReaderFreeCallback = { cls in
    guard let cls else { return }
    Unmanaged<BodyStorage>.fromOpaque(cls).release()
}
