import Synchronization

#if canImport(Glibc)
import Glibc
#endif

/// Cuts connections whose request is not read whole in time, on a thread of its own.
///
/// libmicrohttpd's connection timeout is an idle timeout: every byte resets it, so a client
/// trickling a byte at a time keeps its connection, and enough of them hold every slot. Here
/// each connection gets a deadline when it opens and again when a request on it completes
/// (the next one starts): its request, head and body, must be read whole before it, however
/// the bytes arrive. Once the access handler has the whole request the deadline is lifted
/// (answers and streams take as long as they take). A connection past its deadline is shut
/// down (`shutdown(2)`, both ways): libmicrohttpd sees the end of the stream on its next
/// poll and closes the connection itself. The table is keyed by socket, and a connection
/// leaves it when libmicrohttpd reports it closed, which it does before closing the socket,
/// so a descriptor number is never confused with a later connection's.
///
/// - Complexity: O(1) per event; O(connections) per sweep, every `interval`.
final class RequestDeadlines: @unchecked Sendable {
    /// Each open connection's deadline (monotonic nanoseconds), or nil while it is not timed.
    private let deadlines = Mutex<[Int32: UInt64?]>([:])
    private let limit: UInt64
    private let interval: UInt32
    private let running = Atomic<Bool>(true)
    private var thread = pthread_t()

    /// Starts the thread; `seconds` is the time a request has to arrive whole.
    init(seconds: Double) throws(HTTPServerError) {
        limit = UInt64(max(0.001, seconds) * 1e9)
        // Sweep often enough to cut within a tenth of the limit, at most every 100 ms.
        interval = UInt32(min(100_000, max(1_000, Double(limit) / 10_000)))
        let context = Unmanaged.passRetained(self).toOpaque()
        let created = pthread_create(&thread, nil, { context in
            let deadlines = Unmanaged<RequestDeadlines>.fromOpaque(context!).takeRetainedValue()
            deadlines.run()
            return nil
        }, context)
        guard created == 0 else {
            Unmanaged<RequestDeadlines>.fromOpaque(context).release()
            throw HTTPServerError(message: "cannot start the request deadline thread: error \(created)")
        }
    }

    /// A connection opened: its first request is timed from now.
    func open(_ socket: Int32) {
        let deadline = monotonicNanoseconds() + limit
        deadlines.withLock { $0[socket] = deadline }
    }

    /// A request on an open connection completed: the next one is timed from now. Does
    /// nothing for a connection already forgotten (closed).
    func restart(_ socket: Int32) {
        let deadline = monotonicNanoseconds() + limit
        deadlines.withLock { if $0[socket] != nil { $0[socket] = deadline } }
    }

    /// The connection's request was read whole: not timed until it completes.
    func lift(_ socket: Int32) {
        deadlines.withLock { if $0[socket] != nil { $0[socket] = .some(nil) } }
    }

    /// The connection closed (its socket is still open, and closed right after).
    func forget(_ socket: Int32) {
        deadlines.withLock { _ = $0.removeValue(forKey: socket) }
    }

    /// Stops the thread and waits for it. Idempotent.
    func stop() {
        guard running.exchange(false, ordering: .acquiringAndReleasing) else { return }
        pthread_join(thread, nil)
    }

    private func run() {
        while running.load(ordering: .acquiring) {
            usleep(interval)
            let now = monotonicNanoseconds()
            deadlines.withLock { deadlines in
                for (socket, deadline) in deadlines {
                    guard let deadline, deadline <= now else { continue }
                    shutdown(socket, Int32(SHUT_RDWR))
                    deadlines[socket] = .some(nil)
                }
            }
        }
    }
}
