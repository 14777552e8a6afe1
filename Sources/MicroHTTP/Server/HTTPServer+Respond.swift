import CMicroHTTPD

#if canImport(Glibc)
import Glibc
#endif

extension HTTPServer {
    /// Builds the request, runs the handler (or, for `error`, the error responder), queues the
    /// response, and reports it to the observer. Runs on one of libmicrohttpd's threads.
    func answer(_ connection: OpaquePointer, _ state: RequestState, rejecting error: HTTPError? = nil) {
        answer(connection, state, error, closing: error != nil)
    }

    /// Answers a request read whole with the error responder's answer to `refusal`, keeping
    /// the connection open.
    func answer(_ connection: OpaquePointer, _ state: RequestState, refusing refusal: HTTPError) {
        answer(connection, state, refusal, closing: false)
    }

    /// The request as read so far (its body, if read, is moved out of `state`).
    func request(for state: RequestState) -> HTTPRequest {
        var request = HTTPRequest(method: state.method, path: state.path, rawPath: state.rawPath,
                                  query: state.query, loweredHeaders: state.headers, body: state.body, rawTarget: state.rawTarget)
        request.acceptsDeferredResponse = configuration.deferredResponses
        state.body = []
        return request
    }

    /// Queues the head gate's answer to `request` (its head only) with `Connection: close`:
    /// libmicrohttpd then reads none of the body and sends no `100 Continue`.
    func answer(_ connection: OpaquePointer, _ state: RequestState, _ request: HTTPRequest, gated response: HTTPResponse) {
        state.answered = true
        var response = response
        response.setConnectionClose()
        queue(response, on: connection)
        if let requestObserver {
            requestObserver(request, response, Int((monotonicNanoseconds() - state.started) / 1000))
        }
    }

    private func answer(_ connection: OpaquePointer, _ state: RequestState, _ error: HTTPError?, closing: Bool) {
        state.answered = true
        let request = self.request(for: state)
        var response: HTTPResponse
        if let error {
            response = errorResponder(request, error)
            if closing {
                // libmicrohttpd closes the connection anyway (the rest of the body is unread);
                // say so, so that clients do not try to reuse it.
                response.setConnectionClose()
            }
        } else {
            response = handler(request)
            if let deferred = response.deferred {
                // Sent by `deliverDeferred`, now or once completed.
                state.deferred = deferred
                state.deferredRequest = request
                return
            }
        }
        if stopping.load(ordering: .relaxed) {
            // Stopping: answer, but let keep-alive clients know not to send another request.
            response.setConnectionClose()
        }
        queue(response, on: connection)
        if let requestObserver {
            requestObserver(request, response, Int((monotonicNanoseconds() - state.started) / 1000))
        }
    }

    /// Sends the request's deferred answer if it is complete; otherwise suspends the connection
    /// until it is (or is cancelled), watching the socket for a hang-up meanwhile. Called on
    /// the access handler's last call, and again each time the connection is resumed.
    /// Returns `.NO` (close the connection) once the answer was cancelled.
    func deliverDeferred(_ connection: OpaquePointer, _ state: RequestState) -> MHD_Result {
        guard let deferred = state.deferred else { return .YES }
        switch deferred.take(suspending: connection) {
        case .wait:
            if admit(deferred) {
                monitor?.watch(deferred, socket: cmhd_connection_socket(connection))
            } else {
                // The server is stopping: resumed at once, and closed on the next call.
                deferred.cancel()
            }
            return .YES
        case .close:
            forget(deferred)
            state.deferred = nil
            return .NO
        case .answer(var response):
            forget(deferred)
            state.deferred = nil
            if stopping.load(ordering: .relaxed) { response.setConnectionClose() }
            queue(response, on: connection)
            deferredSent.add(1, ordering: .relaxed)
            if let requestObserver, let request = state.deferredRequest {
                requestObserver(request, response, Int((monotonicNanoseconds() - state.started) / 1000))
            }
            state.deferredRequest = nil
            return .YES
        }
    }

    /// Answers `error` in the middle of a body, where libmicrohttpd 0.9.75 cannot queue a
    /// response (only before the body or after all of it): see `answerDirectly`. libmicrohttpd
    /// has sent nothing for this request (at most `100 Continue`, before the body), so nothing
    /// interleaves. The caller then drains or drops the rest of the body and never queues
    /// another response.
    func answerMidBody(_ connection: OpaquePointer, _ state: RequestState, _ error: HTTPError) {
        state.answered = true
        let request = HTTPRequest(method: state.method, path: state.path, rawPath: state.rawPath, query: [],
                                  loweredHeaders: state.headers, body: [], rawTarget: state.rawTarget)
        answerDirectly(cmhd_connection_socket(connection), request, error, started: state.started)
    }

    /// Writes the error responder's answer to `error` to `socket` directly, whole, with
    /// `Connection: close`, and shuts the sending side, so the client reads the answer and its
    /// end at once (whatever libmicrohttpd sends after it fails); reports it to the observer.
    func answerDirectly(_ socket: Int32, _ request: HTTPRequest, _ error: HTTPError, started: UInt64) {
        var response = errorResponder(request, error)
        response.setConnectionClose()
        if socket >= 0 {
            let reason = MHD_get_reason_phrase_for(UInt32(clamping: response.status)).map { String(cString: $0) } ?? ""
            var head = "HTTP/1.1 \(response.status) \(reason)\r\nDate: \(Self.httpDate())\r\n"
            for (name, value) in response.headers where !value.isEmpty && name.lowercased() != "content-length" {
                head += "\(name): \(value)\r\n"
            }
            head += "Content-Length: \(response.body.count)\r\n\r\n"
            let bytes = Array(head.utf8) + response.body
            var sent = 0
            while sent < bytes.count {
                let n = bytes[sent...].withUnsafeBytes { send(socket, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL) | Int32(MSG_DONTWAIT)) }
                guard n > 0 else { break }
                sent += n
            }
            shutdown(socket, Int32(SHUT_WR))
        }
        if let requestObserver {
            requestObserver(request, response, Int((monotonicNanoseconds() - started) / 1000))
        }
    }

    /// Now as an IMF-fixdate (RFC 9110 §5.6.7): `Sun, 06 Nov 1994 08:49:37 GMT`.
    static func httpDate() -> String {
        var now = time(nil)
        var parts = tm()
        gmtime_r(&now, &parts)
        var buffer = [CChar](repeating: 0, count: 64)
        let count = strftime(&buffer, buffer.count, "%a, %d %b %Y %H:%M:%S GMT", &parts)
        return String(decoding: buffer[..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    private func queue(_ response: HTTPResponse, on connection: OpaquePointer) {
        if response.stream == nil, response.source == nil, let reused = response.reuse?.libmicrohttpdResponse(for: response) {
            // Made once, queued again: libmicrohttpd counts its users (`ResponseReuse`).
            _ = MHD_queue_response(connection, UInt32(clamping: response.status), reused)
            return
        }
        let mhdResponse: OpaquePointer?
        if let stream = response.stream {
            stream.attach(to: connection)
            track(stream)
            monitor?.watch(stream, socket: cmhd_connection_socket(connection))
            // Size unknown (MHD_SIZE_UNKNOWN): sent chunked. libmicrohttpd holds a reference
            // (released by `streamReleased`) for as long as it may read from the stream.
            mhdResponse = MHD_create_response_from_callback(UInt64.max, 4096, streamReader,
                                                            Unmanaged.passRetained(stream).toOpaque(), streamReleased)
        } else if let source = response.source {
            // Size unknown: sent chunked, produced 64 KiB at a time as the socket drains.
            mhdResponse = MHD_create_response_from_callback(UInt64.max, 64 << 10, sourceReader,
                                                            Unmanaged.passRetained(source).toOpaque(), sourceReleased)
        } else {
            mhdResponse = response.body.withUnsafeBytes {
                // MUST_COPY: libmicrohttpd copies the bytes, so the pointer is only borrowed.
                MHD_create_response_from_buffer($0.count, UnsafeMutableRawPointer(mutating: $0.baseAddress), .RESPMEM_MUST_COPY)
            }
        }
        guard let mhdResponse else { return }
        addHeaders(response.headers, to: mhdResponse)
        _ = MHD_queue_response(connection, UInt32(clamping: response.status), mhdResponse)
        MHD_destroy_response(mhdResponse)
    }
}

extension HTTPResponse {
    /// Makes the response say `Connection: close` (replacing any other `Connection` field).
    mutating func setConnectionClose() {
        if header("Connection")?.lowercased() != "close" {
            headers.removeAll { $0.name.lowercased() == "connection" }
            headers.append((name: "Connection", value: "close"))
        }
    }
}

/// Adds header fields to a libmicrohttpd response (which copies them). Each goes through
/// `withCString`: passing a `String` where a C string is expected copies a short string (up
/// to 15 bytes, stored inline: `Vary`, `Accept`, most names) to the heap, an allocation and
/// a free per field; `withCString` copies it to the stack.
func addHeaders(_ headers: [(name: String, value: String)], to response: OpaquePointer) {
    for (name, value) in headers {
        name.withCString { name in
            value.withCString { value in _ = MHD_add_response_header(response, name, value) }
        }
    }
}
