import CMicroHTTPD

#if canImport(Glibc)
import Glibc
#endif

// libmicrohttpd's C callbacks. They are global functions (not closures in main.swift, which
// would inherit main-actor isolation); the server arrives through `cls`.

/// The access handler: called on the first line of a request, once per chunk of body, and
/// once more with no data when the body is complete.
let accessHandler: MHD_AccessHandlerCallback = { cls, connection, url, method, _, uploadData, uploadDataSize, requestContext in
    guard let cls, let connection, let requestContext, let uploadDataSize else { return .NO }
    let server = Unmanaged<HTTPServer>.fromOpaque(cls).takeUnretainedValue()
    let limit = server.configuration.maxBodyBytes

    guard let pointer = requestContext.pointee else {
        // First call: headers only. Remember the request; answer on a later call (answering
        // now would make libmicrohttpd close a keep-alive connection).
        let state = RequestState(method: method.map { String(cString: $0) } ?? "GET",
                                 path: url.map { String(cString: $0) } ?? "/",
                                 started: monotonicNanoseconds())
        requestContext.pointee = Unmanaged.passRetained(state).toOpaque()
        server.inFlight.add(1, ordering: .relaxed)
        if let declared = MHD_lookup_connection_value(connection, .HEADER_KIND, "Content-Length"),
           let length = Int(String(cString: declared).trimmingCharacters()), length > limit {
            // Too large by its own account: refuse before reading a byte of it.
            state.rejected = true
            server.answer(connection, state, rejecting: .payloadTooLarge(limit: limit))
        }
        return .YES
    }
    let state = Unmanaged<RequestState>.fromOpaque(pointer).takeUnretainedValue()

    if uploadDataSize.pointee > 0 {
        let size = uploadDataSize.pointee
        uploadDataSize.pointee = 0
        guard !state.rejected else { return .YES }
        if state.body.count + size > limit {
            state.rejected = true
            state.body = []
            server.answer(connection, state, rejecting: .payloadTooLarge(limit: limit))
            return .YES
        }
        if let uploadData {
            uploadData.withMemoryRebound(to: UInt8.self, capacity: size) {
                state.body.append(contentsOf: UnsafeBufferPointer(start: $0, count: size))
            }
        }
        return .YES
    }

    if !state.answered { server.answer(connection, state) }
    return .YES
}

/// Releases a request's state when libmicrohttpd is done with it (answered, timed out, or
/// the client went away).
let requestCompleted: MHD_RequestCompletedCallback = { cls, _, requestContext, _ in
    guard let cls, let requestContext, let pointer = requestContext.pointee else { return }
    Unmanaged<RequestState>.fromOpaque(pointer).release()
    requestContext.pointee = nil
    Unmanaged<HTTPServer>.fromOpaque(cls).takeUnretainedValue().inFlight.subtract(1, ordering: .releasing)
}

/// Decodes `%HH` escapes in paths and query arguments in place, like libmicrohttpd's own,
/// except `%00`, which stays as it is: a decoded NUL would end the C string early and let
/// `/stacks/victim%00/rows/x` reach `/stacks/victim`.
let unescape: @convention(c) (UnsafeMutableRawPointer?, OpaquePointer?, UnsafeMutablePointer<CChar>?) -> Int = { _, _, text in
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

/// Collects key–value pairs (headers or query arguments) into a Swift array.
private let collectPair: MHD_KeyValueIterator = { cls, _, key, value in
    guard let cls, let key else { return .YES }
    let pairs = cls.assumingMemoryBound(to: [(name: String, value: String)].self)
    pairs.pointee.append((String(cString: key), value.map { String(cString: $0) } ?? ""))
    return .YES
}

extension HTTPServer {
    /// Builds the request, runs the handler (or the error responder), queues the response.
    func answer(_ connection: OpaquePointer, _ state: RequestState, rejecting error: HTTPError? = nil) {
        state.answered = true
        var headers: [(name: String, value: String)] = []
        var query: [(name: String, value: String)] = []
        _ = withUnsafeMutablePointer(to: &headers) { MHD_get_connection_values(connection, .HEADER_KIND, collectPair, $0) }
        _ = withUnsafeMutablePointer(to: &query) { MHD_get_connection_values(connection, .GET_ARGUMENT_KIND, collectPair, $0) }
        let request = HTTPRequest(method: state.method, path: state.path, query: query, headers: headers, body: state.body)
        state.body = []
        var response = error.map { errorResponder(request, $0) } ?? handler(request)
        if error != nil { response.headers.append((name: "Connection", value: "close")) }
        queue(response, on: connection)
        if let requestObserver {
            requestObserver(request, response, Int((monotonicNanoseconds() - state.started) / 1000))
        }
    }

    private func queue(_ response: HTTPResponse, on connection: OpaquePointer) {
        let mhdResponse: OpaquePointer?
        if let stream = response.stream {
            stream.attach(to: connection)
            track(stream)
            // Size unknown: sent chunked. The server keeps a reference until libmicrohttpd frees it.
            mhdResponse = MHD_create_response_from_callback(UInt64.max, 4096, streamReader,
                                                            Unmanaged.passRetained(stream).toOpaque(), streamReleased)
        } else {
            var body = response.body
            mhdResponse = body.withUnsafeMutableBytes {
                MHD_create_response_from_buffer($0.count, $0.baseAddress, .RESPMEM_MUST_COPY)
            }
        }
        guard let mhdResponse else { return }
        for (name, value) in response.headers {
            _ = MHD_add_response_header(mhdResponse, name, value)
        }
        _ = MHD_queue_response(connection, UInt32(response.status), mhdResponse)
        MHD_destroy_response(mhdResponse)
    }
}

extension String {
    /// Without leading and trailing spaces and tabs.
    func trimmingCharacters() -> Substring {
        var s = Substring(self)
        while s.first == " " || s.first == "\t" { s.removeFirst() }
        while s.last == " " || s.last == "\t" { s.removeLast() }
        return s
    }
}
