import CMicroHTTPD

#if canImport(Glibc)
import Glibc
#endif

/// Answers, in the application's format, the request heads libmicrohttpd 0.9.75 refuses on its
/// own after reading them whole: a `Content-Length` that is not a decimal number (400) or
/// does not fit 64 bits (413).
///
/// libmicrohttpd refuses those before the access handler is ever called, with a short HTML
/// page, and then overwrites the state its refusal left (`parse_connection_headers`), so the
/// response head is built and sent twice. No callback runs between its check and its send,
/// except its error log, which it writes synchronously, on the connection's thread, before
/// queuing the refusal. So the server takes the log (`MHD_OPTION_EXTERNAL_LOGGER`), and on
/// those two messages finds the connection: of the calling thread's connections, the one
/// whose head is complete (its header size is known), whose access handler has not been
/// called, and which has no response queued; only the connection being parsed is all three.
/// It writes the error responder's answer to the socket whole, with `Connection: close`, and
/// shuts the sending side: the client reads one answer and the end, and libmicrohttpd's own
/// send then fails and it closes the connection. Every other message is dropped (nothing is
/// written to stderr).
///
/// - Complexity: O(connections of the thread) per such refusal; O(1) for other messages.
let libraryLogged: MHD_LogCallback = { cls, format, _ in
    guard let cls, let format else { return }
    let tooLarge: Bool
    if strncmp(format, "Failed to parse `Content-Length'", 32) == 0 {
        tooLarge = false
    } else if strncmp(format, "Too large value of 'Content-Length'", 35) == 0 {
        tooLarge = true
    } else {
        return
    }
    let server = Unmanaged<HTTPServer>.fromOpaque(cls).takeUnretainedValue()
    guard let deadlines = server.deadlines else { return }
    let found = deadlines.withSlotsOfThisThread { slots -> (RequestDeadlines.Slot, RequestState)? in
        for slot in slots where !slot.cut && slot.phase.load(ordering: .relaxed) == RequestDeadlines.Phase.head.rawValue {
            guard let state = slot.request?.takeUnretainedValue(), !state.answered,
                  cmhd_request_head_size(slot.connection) > 0, cmhd_response_status(slot.connection) == 0 else { continue }
            return (slot, state)
        }
        return nil
    }
    guard let (slot, state) = found else { return }
    var headers: [(name: String, value: String)] = []
    _ = withUnsafeMutablePointer(to: &headers) { MHD_get_connection_values(slot.connection, .HEADER_KIND, collectPair, $0) }
    let value = MHD_lookup_connection_value(slot.connection, .HEADER_KIND, "Content-Length").map { String(cString: $0) } ?? ""
    let error = tooLarge
        ? HTTPError.payloadTooLarge(limit: server.configuration.maxBodyBytes)
        : HTTPError.badRequest("the Content-Length field \"\(HTTPRequest.printable(value))\" is not a decimal number of bytes",
                               field: "Content-Length")
    state.answered = true
    // libmicrohttpd does not tell the method before the access handler's first call.
    let request = HTTPRequest(method: "-", path: state.rawPath, rawPath: state.rawPath, query: state.query,
                              loweredHeaders: headers.map { ($0.name.lowercased(), $0.value) }, body: [], rawTarget: state.rawTarget)
    server.answerDirectly(slot.socket, request, error, started: state.started)
}
