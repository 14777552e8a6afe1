/// What the server keeps about one request between libmicrohttpd's calls: created on the
/// first call, released when libmicrohttpd reports the request complete.
final class RequestState {
    let method: String
    let path: String
    let started: UInt64
    var body: [UInt8] = []
    /// A response was queued (the request is answered; further calls do nothing).
    var answered = false
    /// The body went over the limit; the rest is discarded.
    var rejected = false

    init(method: String, path: String, started: UInt64) {
        self.method = method
        self.path = path
        self.started = started
    }
}
