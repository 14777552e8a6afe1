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
/// poll and closes the connection itself.
///
/// Each connection has a `Slot`, its socket context in libmicrohttpd, made when it opens and
/// let go when libmicrohttpd reports it closed, which it does before closing the socket, so
/// a descriptor number is never confused with a later connection's. A request sets and lifts
/// its own connection's deadline in that slot, without a lock and without a table lookup
/// (two per request, on the path of every answer); only opening and closing a connection
/// take the table's lock.
///
/// - Complexity: O(1) per event; O(connections) per sweep, every `interval`.
final class RequestDeadlines: @unchecked Sendable {
    /// One connection's deadline (monotonic nanoseconds), or 0 while it is not timed.
    final class Slot: Sendable {
        let socket: Int32
        let deadline: Atomic<UInt64>

        init(socket: Int32, deadline: UInt64) {
            self.socket = socket
            self.deadline = Atomic(deadline)
        }
    }

    /// The slots of the open connections, by socket.
    private let slots = Mutex<[Int32: Slot]>([:])
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

    /// A connection opened: its first request is timed from now. Returns its slot, retained
    /// once for libmicrohttpd's socket context (given back to `forget`).
    func open(_ socket: Int32) -> UnsafeMutableRawPointer {
        let slot = Slot(socket: socket, deadline: monotonicNanoseconds() + limit)
        slots.withLock { $0[socket] = slot }
        return Unmanaged.passRetained(slot).toOpaque()
    }

    /// A request on an open connection completed: the next one is timed from now.
    func restart(_ context: UnsafeMutableRawPointer) {
        Unmanaged<Slot>.fromOpaque(context).takeUnretainedValue().deadline.store(monotonicNanoseconds() + limit, ordering: .relaxed)
    }

    /// The connection's request was read whole: not timed until it completes.
    func lift(_ context: UnsafeMutableRawPointer) {
        Unmanaged<Slot>.fromOpaque(context).takeUnretainedValue().deadline.store(0, ordering: .relaxed)
    }

    /// The connection closed (its socket is still open, and closed right after): its slot,
    /// from `open`, is let go.
    func forget(_ context: UnsafeMutableRawPointer) {
        let slot = Unmanaged<Slot>.fromOpaque(context).takeRetainedValue()
        slots.withLock { if $0[slot.socket] === slot { $0[slot.socket] = nil } }
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
            slots.withLock { slots in
                for slot in slots.values {
                    let deadline = slot.deadline.load(ordering: .relaxed)
                    // Not when a request completed meanwhile and set a new deadline.
                    guard deadline != 0, deadline <= now,
                          slot.deadline.compareExchange(expected: deadline, desired: 0, ordering: .relaxed).exchanged else { continue }
                    shutdown(slot.socket, Int32(SHUT_RDWR))
                }
            }
        }
    }
}
