import CMicroHTTPD
import Synchronization

/// A response body produced as it is sent: libmicrohttpd asks for more whenever the socket
/// has room, and `produce` appends the next piece. The body is sent chunked, its size
/// unknown up front; what is held at any time is one piece (plus what `produce` captured),
/// never the whole body. A client that stops reading stops production: the connection then
/// times out (`Configuration.connectionTimeout`) and the source is released.
public final class HTTPBodySource: @unchecked Sendable {
    /// Appends the next piece to its argument; returns false once the body is complete (the
    /// last piece may come with it).
    private let produce: (inout [UInt8]) -> Bool
    private var pending: [UInt8] = []
    private var sent = 0
    private var complete = false
    /// What `record(upTo:_:)` asked for: the bytes produced so far, and who gets them.
    private var recorded: [UInt8] = []
    private var recordLimit = 0
    private var recordFinished: (@Sendable ([UInt8]?) -> Void)?

    private static let alive = Atomic<Int>(0)

    /// How many sources exist in the process: each holds what its `produce` captured (for an
    /// answer, a copy of the model) until its response is sent or its connection closed.
    public static var live: Int { alive.load(ordering: .relaxed) }

    /// A body produced by `produce`, which libmicrohttpd calls from one thread at a time.
    public init(_ produce: @escaping (inout [UInt8]) -> Bool) {
        self.produce = produce
        Self.alive.add(1, ordering: .relaxed)
    }

    deinit {
        recordFinished?(nil)
        Self.alive.subtract(1, ordering: .relaxed)
    }

    /// Keeps a copy of what is produced, up to `limit` bytes, for whoever wants to send the
    /// same body again whole: `finished` is called once, with the whole body when it was
    /// produced to its end within `limit` bytes, else with nil (it grew past the limit, or the
    /// source was released before its end: a client that went away). Call it before the
    /// source is sent. Costs one more copy of each piece while recording; `expecting` bytes
    /// (at most `limit`) are reserved up front, so that the copy does not grow by doubling.
    public func record(upTo limit: Int, expecting: Int = 0, _ finished: @escaping @Sendable ([UInt8]?) -> Void) {
        recordLimit = limit
        recorded.reserveCapacity(min(limit, expecting))
        recordFinished = finished
    }

    /// Adds the piece just produced to the recording; hands it over at the end, or gives up
    /// past the limit.
    private func recordPiece() {
        guard let finished = recordFinished else { return }
        if recorded.count + pending.count > recordLimit {
            recordFinished = nil
            recorded = []
            finished(nil)
            return
        }
        recorded.append(contentsOf: pending)
        if complete {
            recordFinished = nil
            let body = recorded
            recorded = []
            finished(body)
        }
    }

    /// Copies up to `capacity` bytes of the body into `buffer`, producing the next piece when
    /// the last one is sent; libmicrohttpd's end-of-stream mark when none is left.
    func read(into buffer: UnsafeMutablePointer<CChar>, capacity: Int) -> Int {
        while sent == pending.count {
            if complete { return MHD_CONTENT_READER_END_OF_STREAM }
            pending.removeAll(keepingCapacity: true)
            sent = 0
            complete = !produce(&pending)
            recordPiece()
        }
        let count = min(capacity, pending.count - sent)
        pending.withUnsafeBufferPointer { source in
            buffer.withMemoryRebound(to: UInt8.self, capacity: count) { $0.update(from: source.baseAddress! + sent, count: count) }
        }
        sent += count
        return count
    }
}

/// Gives libmicrohttpd the next bytes of a produced body.
let sourceReader: MHD_ContentReaderCallback = { cls, _, buffer, capacity in
    guard let cls, let buffer else { return MHD_CONTENT_READER_END_WITH_ERROR }
    return Unmanaged<HTTPBodySource>.fromOpaque(cls).takeUnretainedValue().read(into: buffer, capacity: capacity)
}

/// libmicrohttpd no longer needs the body (sent, or the connection closed): release it.
let sourceReleased: MHD_ContentReaderFreeCallback = { cls in
    guard let cls else { return }
    Unmanaged<HTTPBodySource>.fromOpaque(cls).release()
}
