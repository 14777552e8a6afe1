import CMicroHTTPD

#if canImport(Glibc)
import Glibc
#endif

// libmicrohttpd's C callbacks. They are global constants in an ordinary file (a closure
// literal in main.swift would inherit main-actor isolation and trap on libmicrohttpd's
// threads); the server arrives through `cls`, the request's state through `*con_cls`.

/// `MHD_OPTION_URI_LOG_CALLBACK`'s function type (the header only documents it):
/// `void *(*)(void *cls, const char *uri, struct MHD_Connection *con)`.
typealias URILogCallback = @convention(c) (UnsafeMutableRawPointer?, UnsafePointer<CChar>?, OpaquePointer?) -> UnsafeMutableRawPointer?

/// `MHD_OPTION_UNESCAPE_CALLBACK`'s function type:
/// `size_t (*)(void *cls, struct MHD_Connection *c, char *s)`.
typealias UnescapeCallback = @convention(c) (UnsafeMutableRawPointer?, OpaquePointer?, UnsafeMutablePointer<CChar>?) -> Int

/// Called once the request line is parsed, with the target as received (before
/// libmicrohttpd splits off the query and percent-decodes the path in place). What it
/// returns becomes the request's `*con_cls`; libmicrohttpd then reports the request's
/// completion even if the access handler is never called (a malformed header, say).
///
/// It hides the query from libmicrohttpd, which parses it right after, by ending it just
/// after its `?` in libmicrohttpd's buffer: the server parses it itself (`RequestState.query`).
let uriReceived: URILogCallback = { cls, uri, connection in
    guard let cls else { return nil }
    let server = Unmanaged<HTTPServer>.fromOpaque(cls).takeUnretainedValue()
    let state = RequestState(target: uri, started: monotonicNanoseconds())
    if let uri, let question = memchr(uri, Int32(UInt8(ascii: "?")), state.targetLength) {
        // In libmicrohttpd's read buffer, which is its to write (it passes it as const).
        question.assumingMemoryBound(to: CChar.self).advanced(by: 1).pointee = 0
    }
    if let connection, let context = cmhd_connection_socket_context(connection) {
        let slot = RequestDeadlines.slot(context)
        slot.request = Unmanaged.passUnretained(state)
        slot.phase.store(RequestDeadlines.Phase.head.rawValue, ordering: .relaxed)
    }
    server.inFlight.add(1, ordering: .relaxed)
    return Unmanaged.passRetained(state).toOpaque()
}

/// The access handler. libmicrohttpd calls it once when the headers are complete, once per
/// piece of body, and once more with `*upload_data_size == 0` when the request is complete.
/// The response is queued on that last call, for every method: queuing one on the first
/// call makes libmicrohttpd close a keep-alive connection. The exceptions: a malformed head
/// and a body declared too large, refused on the first call precisely so that the connection
/// closes unread; and a chunked body growing over the limit, answered in its middle
/// (`answerMidBody`), then drained for at most one more limit's worth and closed.
let accessHandler: MHD_AccessHandlerCallback = { cls, connection, url, method, version, uploadData, uploadDataSize, requestContext in
    guard let cls, let connection, let requestContext, let uploadDataSize else { return .NO }
    let server = Unmanaged<HTTPServer>.fromOpaque(cls).takeUnretainedValue()
    let state: RequestState
    if let pointer = requestContext.pointee {
        state = Unmanaged<RequestState>.fromOpaque(pointer).takeUnretainedValue()
    } else {
        // Not seen by the URI callback (it always runs first; this is only a safety net).
        state = RequestState(target: url, started: monotonicNanoseconds())
        requestContext.pointee = Unmanaged.passRetained(state).toOpaque()
        server.inFlight.add(1, ordering: .relaxed)
    }

    let limit = state.seenHeaders ? state.bodyLimit : server.configuration.maxBodyBytes
    if !state.seenHeaders {
        // First call: headers only. Remember the request; answer on a later call.
        state.seenHeaders = true
        if let deadlines = server.deadlines, let slot = cmhd_connection_socket_context(connection) { deadlines.advance(slot, to: .body) }
        state.method = method.map { String(cString: $0) } ?? "GET"
        state.path = url.map { String(cString: $0) } ?? "/"
        state.bodyLimit = server.bodyLimit?(state.method, state.path) ?? server.configuration.maxBodyBytes
        do throws(HTTPError) {
            guard let method, let url, let version else { throw HTTPError.badRequest("the request line is incomplete") }
            let head = try RequestHead(connection: connection, method: method, target: url, version: version,
                                       targetLength: state.targetLength)
            let http10 = strcmp(version, "HTTP/1.0") == 0
            try head.checkFraming(http10: http10)
            try head.checkHost(http10: http10)
            state.headers = head.headers
            try checkTarget(state.rawTarget)
        } catch {
            // Malformed: answered now, so libmicrohttpd reads nothing more and closes.
            server.answer(connection, state, rejecting: error)
            return .YES
        }
        // Only a request that announces a body is gated: the gate exists so that no body is read
        // (nor `100 Continue` sent) before it answers, and a request without one costs no more.
        if let gate = server.headGate, announcesBody(connection) {
            let request = server.request(for: state)
            if let early = gate(request) {
                server.answer(connection, state, request, gated: early)
                return .YES
            }
        }
        if state.pathHoldsEncodedNUL {
            state.refusal = .badRequest("the path holds %00, an encoded NUL, which no path segment may hold")
        }
        if let declared = MHD_lookup_connection_value(connection, .HEADER_KIND, "Content-Length"),
           let length = Int(String(cString: declared).trimmingSpaces), length > state.bodyLimit {
            // Too large by its own account: refuse before reading a byte of it. Queued now,
            // libmicrohttpd stops reading, sends no `100 Continue`, and closes after the answer.
            server.answer(connection, state, rejecting: .payloadTooLarge(limit: state.bodyLimit))
        }
        return .YES
    }

    let size = uploadDataSize.pointee
    if size > 0 {
        uploadDataSize.pointee = 0
        if state.rejected {
            // Answered in the middle of the body: drain (and drop) up to one more limit's
            // worth, so a client still sending reads the answer rather than a reset, then close.
            state.discarded += size
            return state.discarded > limit ? .NO : .YES
        }
        if state.answered || state.refusal != nil { return .YES }
        if state.body.count + size > limit {
            // Over the limit in a chunked body: answered now, not after the whole body.
            state.rejected = true
            state.discarded = state.body.count + size - limit
            state.body = []
            server.answerMidBody(connection, state, .payloadTooLarge(limit: limit))
            return .YES
        }
        if let uploadData {
            uploadData.withMemoryRebound(to: UInt8.self, capacity: size) {
                state.body.append(contentsOf: UnsafeBufferPointer(start: $0, count: size))
            }
        }
        return .YES
    }

    // Answered in the middle of the body: the answer is sent; close.
    if state.rejected { return .NO }
    // Resumed: the deferred answer is complete (or cancelled).
    if state.deferred != nil { return server.deliverDeferred(connection, state) }
    if let deadlines = server.deadlines, let slot = cmhd_connection_socket_context(connection) { deadlines.lift(slot) }
    if !state.answered {
        if let refusal = state.refusal {
            server.answer(connection, state, refusing: refusal)
        } else {
            server.answer(connection, state)
            if state.deferred != nil { return server.deliverDeferred(connection, state) }
        }
    }
    return .YES
}

/// Refuses a target holding a space or a control byte (libmicrohttpd lets them through):
/// they are not allowed in a URI (RFC 3986), and would make log lines ambiguous.
private func checkTarget(_ target: String) throws(HTTPError) {
    var target = target
    if let byte = target.withUTF8({ $0.first(where: { $0 <= 0x20 || $0 == 0x7F }) }) {
        throw .badRequest("the request target holds the byte 0x\(RequestHead.hex(byte)); encode it as %\(RequestHead.hex(byte))")
    }
}

/// Releases a request's state when libmicrohttpd is done with it (answered, timed out, the
/// client went away, or the daemon stopped).
let requestCompleted: MHD_RequestCompletedCallback = { cls, connection, requestContext, _ in
    guard let cls, let requestContext, let pointer = requestContext.pointee else { return }
    // The next request on the connection is timed from now.
    if let connection, let deadlines = Unmanaged<HTTPServer>.fromOpaque(cls).takeUnretainedValue().deadlines,
       let slot = cmhd_connection_socket_context(connection) {
        deadlines.restart(slot)
    }
    // A deferred answer never sent (the connection closed after a resume): dropped.
    if let deferred = Unmanaged<RequestState>.fromOpaque(pointer).takeUnretainedValue().deferred {
        deferred.cancel()
        Unmanaged<HTTPServer>.fromOpaque(cls).takeUnretainedValue().forget(deferred)
    }
    Unmanaged<RequestState>.fromOpaque(pointer).release()
    requestContext.pointee = nil
    Unmanaged<HTTPServer>.fromOpaque(cls).takeUnretainedValue().inFlight.subtract(1, ordering: .releasing)
}

/// A connection opened or closed: it is counted, and its request deadline starts (its slot
/// becomes the connection's socket context; above the high-water mark another connection's
/// unfinished request is shed), or it is forgotten (before libmicrohttpd closes the socket).
let connectionNotified: MHD_NotifyConnectionCallback = { cls, connection, socketContext, event in
    guard let cls, let connection else { return }
    let server = Unmanaged<HTTPServer>.fromOpaque(cls).takeUnretainedValue()
    let opened = event.rawValue == 0 /* MHD_CONNECTION_NOTIFY_STARTED */
    server.connections.add(opened ? 1 : -1, ordering: .relaxed)
    guard let deadlines = server.deadlines, let socketContext else { return }
    if opened {
        socketContext.pointee = deadlines.open(cmhd_connection_socket(connection), connection: connection)
    } else if let slot = socketContext.pointee {
        deadlines.forget(slot)
        socketContext.pointee = nil
    }
}

/// Decodes `%HH` escapes in paths and query arguments in place, like libmicrohttpd's own,
/// except `%00`, which stays as it is: a decoded NUL would end the C string early and let
/// `/stacks/victim%00/rows/x` reach `/stacks/victim`. (libmicrohttpd turns `+` into a space
/// in query arguments before calling it.)
let unescape: UnescapeCallback = { _, _, text in
    guard let text else { return 0 }
    func hex(_ c: CChar) -> UInt8? {
        switch UInt8(bitPattern: c) {
        case 48...57: UInt8(bitPattern: c) - 48
        case 65...70: UInt8(bitPattern: c) - 55
        case 97...102: UInt8(bitPattern: c) - 87
        default: nil
        }
    }
    var read = 0
    var write = 0
    while text[read] != 0 {
        if text[read] == 37, text[read + 1] != 0, text[read + 2] != 0,
           let high = hex(text[read + 1]), let low = hex(text[read + 2]), high | low != 0 {
            text[write] = CChar(bitPattern: high << 4 | low)
            read += 3
        } else {
            text[write] = text[read]
            read += 1
        }
        write += 1
    }
    text[write] = 0
    return write
}

/// Collects key–value pairs (headers or query arguments) into a Swift array; a key without
/// a value (a query parameter without `=`) gets "".
let collectPair: MHD_KeyValueIterator = { cls, _, key, value in
    guard let cls, let key else { return .YES }
    let pairs = cls.assumingMemoryBound(to: [(name: String, value: String)].self)
    pairs.pointee.append((String(cString: key), value.map { String(cString: $0) } ?? ""))
    return .YES
}

extension String {
    /// Without leading and trailing spaces and tabs.
    var trimmingSpaces: Substring {
        var s = Substring(self)
        while s.first == " " || s.first == "\t" { s.removeFirst() }
        while s.last == " " || s.last == "\t" { s.removeLast() }
        return s
    }
}

/// Monotonic clock, in nanoseconds.
func monotonicNanoseconds() -> UInt64 {
    var ts = timespec()
    clock_gettime(CLOCK_MONOTONIC, &ts)
    return UInt64(ts.tv_sec) * 1_000_000_000 + UInt64(ts.tv_nsec)
}

/// Whether the request's head announces a body: `Content-Length` other than 0,
/// `Transfer-Encoding`, or `Expect`. O(header fields).
private func announcesBody(_ connection: OpaquePointer?) -> Bool {
    if MHD_lookup_connection_value(connection, .HEADER_KIND, "Transfer-Encoding") != nil
        || MHD_lookup_connection_value(connection, .HEADER_KIND, "Expect") != nil { return true }
    guard let length = MHD_lookup_connection_value(connection, .HEADER_KIND, "Content-Length") else { return false }
    return String(cString: length).trimmingSpaces != "0"
}
