import CMicroHTTPD
import Synchronization

#if canImport(Glibc)
import Glibc
#endif

/// The table of open connections: cuts those whose request is not read whole in time, on a
/// thread of its own, and sheds the least advanced unfinished requests when the table fills.
///
/// libmicrohttpd's connection timeout is an idle timeout: every byte resets it, so a client
/// trickling a byte at a time keeps its connection, and enough of them hold every slot. Here
/// each connection gets a deadline when it opens and again when a request on it completes
/// (the next one starts): its request, head and body, must be read whole before it, however
/// the bytes arrive. Once the access handler has the whole request the deadline is lifted
/// (answers and streams take as long as they take).
///
/// Rules, with L the connection limit:
/// - **Deadline**: `seconds` from the opening or the previous answer.
/// - **Pressure**: while L/2 or more connections are open, the deadline is at most
///   `pressureSeconds` (10 s): unfinished requests are cut sooner.
/// - **Shedding**: when a connection opens while more than `highWater` (L less a tenth of L)
///   are open, and on every sweep while that is so, an unfinished request is cut: the least
///   advanced (`Phase`: a connection waiting for its request line before one in its head,
///   before one reading its body), and of those the one timed longest. A request timed for
///   less than `shedAge` (0.5 s) is never shed: it may be arriving whole right now. A connection
///   whose request was read whole (being answered, streaming, waiting for a deferred answer)
///   is never shed. So trickling connections, from however many addresses, never hold the
///   table for long: libmicrohttpd keeps accepting, and a client sending its request at once
///   is served.
/// - **Stop**: `cutUnfinished()` cuts every connection whose request has begun (its request
///   line read) and is not read whole; idle kept-alive connections are left, to be answered
///   once more (with `Connection: close`) if they ask during the grace period.
///
/// Cutting a connection is `shutdown(2)` of its socket, both ways: libmicrohttpd sees the end
/// of the stream on its next poll and closes the connection itself.
///
/// Each connection has a `Slot`, its socket context in libmicrohttpd, made when it opens and
/// let go when libmicrohttpd reports it closed, which it does before closing the socket; every
/// cut is made under the table's lock, which `forget` takes too, so a descriptor number is
/// never confused with a later connection's. A request sets and lifts its own connection's
/// deadline in that slot, without a lock and without a table lookup (a few stores per request,
/// on the path of every answer); only opening and closing a connection take the table's lock.
///
/// - Complexity: O(1) per request; O(connections) per sweep, every `interval`, and per
///   connection opened above the high-water mark.
final class RequestDeadlines: @unchecked Sendable {
    /// One connection: its deadline, and what shedding and `LibraryRefusals` need to know.
    final class Slot: @unchecked Sendable {  // `request` and `cut`: see each
        let socket: Int32
        /// libmicrohttpd's connection, and the thread serving it (all its callbacks run there).
        let connection: OpaquePointer
        let thread: pthread_t
        /// Monotonic nanoseconds by which the request must be read whole, or 0 while not timed.
        let deadline: Atomic<UInt64>
        /// How far the current request has come (a `Phase`'s raw value).
        let phase = Atomic<UInt8>(Phase.waiting.rawValue)
        /// Shut down, not yet closed: no longer counted as open. Guarded by the table's lock.
        var cut = false
        /// The request being read, unretained: set by the URI callback, cleared by the
        /// completion callback before the state is released. Only the serving thread uses it.
        var request: Unmanaged<RequestState>?

        init(socket: Int32, connection: OpaquePointer, deadline: UInt64) {
            self.socket = socket
            self.connection = connection
            thread = pthread_self()
            self.deadline = Atomic(deadline)
        }
    }

    /// How far a connection's current request has come; shedding takes the least advanced.
    enum Phase: UInt8 {
        /// No request line yet (a new or kept-alive connection).
        case waiting
        /// The request line is read (the URI callback ran), not the whole head.
        case head
        /// The head is read (the access handler was called), not the whole body.
        case body
    }

    /// The deadline under pressure, at most.
    static let pressureSeconds = 10.0
    /// Seconds a request must have been timed before it may be shed.
    static let shedAge = 0.5

    private struct Table {
        var slots: [Int32: Slot] = [:]
        /// Slots cut and not yet forgotten.
        var cut = 0
        var open: Int { slots.count - cut }
    }

    private let table = Mutex(Table())
    private let limit: UInt64
    private let pressureLimit: UInt64
    private let highWater: Int
    private let pressureMark: Int
    private let shedAge = UInt64(RequestDeadlines.shedAge * 1e9)
    private let interval: UInt32
    private let running = Atomic<Bool>(true)
    /// Unfinished requests cut to make room since the start.
    let shed = Atomic<Int>(0)
    private var thread = pthread_t()

    /// Starts the thread; `seconds` is the time a request has to arrive whole, and
    /// `connectionLimit` the most connections libmicrohttpd keeps open.
    init(seconds: Double, connectionLimit: Int) throws(HTTPServerError) {
        limit = UInt64(max(0.001, seconds) * 1e9)
        pressureLimit = min(limit, UInt64(Self.pressureSeconds * 1e9))
        highWater = max(1, connectionLimit - max(1, connectionLimit / 10))
        pressureMark = max(1, connectionLimit / 2)
        // Sweep often enough to cut within a tenth of the limit, at most every 100 ms.
        interval = UInt32(min(100_000, max(1_000, Double(pressureLimit) / 10_000)))
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

    /// A connection opened (called on its thread): its first request is timed from now, and
    /// above the high-water mark the least advanced unfinished request is shed. Returns its
    /// slot, retained once for libmicrohttpd's socket context (given back to `forget`).
    func open(_ socket: Int32, connection: OpaquePointer) -> UnsafeMutableRawPointer {
        let slot = Slot(socket: socket, connection: connection, deadline: monotonicNanoseconds() + limit)
        table.withLock { table in
            table.slots[socket] = slot
            if table.open > highWater { shedOne(&table, now: monotonicNanoseconds()) }
        }
        return Unmanaged.passRetained(slot).toOpaque()
    }

    /// Cuts the least advanced unfinished request timed for `shedAge` or more, if there is
    /// one; under the table's lock. Returns whether it cut one. O(connections).
    @discardableResult
    private func shedOne(_ table: inout Table, now: UInt64) -> Bool {
        var victim: (slot: Slot, phase: UInt8, deadline: UInt64)?
        for candidate in table.slots.values where !candidate.cut {
            let deadline = candidate.deadline.load(ordering: .relaxed)
            // Timed, and since `shedAge` or more (its deadline was set `limit` after its start).
            guard deadline != 0, deadline + shedAge <= now + limit else { continue }
            let phase = candidate.phase.load(ordering: .relaxed)
            if let best = victim, (best.phase, best.deadline) <= (phase, deadline) { continue }
            victim = (candidate, phase, deadline)
        }
        guard let victim else { return false }
        Self.cut(victim.slot, in: &table)
        shed.add(1, ordering: .relaxed)
        return true
    }

    /// The slot whose context is `context`.
    static func slot(_ context: UnsafeMutableRawPointer) -> Slot {
        Unmanaged<Slot>.fromOpaque(context).takeUnretainedValue()
    }

    /// A request on an open connection completed: the next one is timed from now.
    func restart(_ context: UnsafeMutableRawPointer) {
        let slot = Self.slot(context)
        slot.request = nil
        slot.phase.store(Phase.waiting.rawValue, ordering: .relaxed)
        slot.deadline.store(monotonicNanoseconds() + limit, ordering: .relaxed)
    }

    /// The connection's request has come to `phase`.
    func advance(_ context: UnsafeMutableRawPointer, to phase: Phase) {
        Self.slot(context).phase.store(phase.rawValue, ordering: .relaxed)
    }

    /// The connection's request was read whole: not timed until it completes.
    func lift(_ context: UnsafeMutableRawPointer) {
        Self.slot(context).deadline.store(0, ordering: .relaxed)
    }

    /// The connection closed (its socket is still open, and closed right after): its slot,
    /// from `open`, is let go.
    func forget(_ context: UnsafeMutableRawPointer) {
        let slot = Unmanaged<Slot>.fromOpaque(context).takeRetainedValue()
        table.withLock { table in
            guard table.slots[slot.socket] === slot else { return }
            table.slots[slot.socket] = nil
            if slot.cut { table.cut -= 1 }
        }
    }

    /// Cuts every connection whose request has begun and is not read whole, for a stop: those
    /// being answered are left to finish, idle ones to ask once more. O(connections).
    func cutUnfinished() {
        table.withLock { table in
            for slot in table.slots.values where !slot.cut && slot.deadline.load(ordering: .relaxed) != 0
                && slot.phase.load(ordering: .relaxed) != Phase.waiting.rawValue {
                Self.cut(slot, in: &table)
            }
        }
    }

    /// Runs `body` under the table's lock with the slots of the calling thread's connections.
    func withSlotsOfThisThread<T>(_ body: ([Slot]) -> T) -> T {
        let me = pthread_self()
        return table.withLock { table in body(table.slots.values.filter { pthread_equal($0.thread, me) != 0 }) }
    }

    /// Stops the thread and waits for it. Idempotent.
    func stop() {
        guard running.exchange(false, ordering: .acquiringAndReleasing) else { return }
        pthread_join(thread, nil)
    }

    /// Shuts `slot`'s socket down both ways; under the table's lock.
    private static func cut(_ slot: Slot, in table: inout Table) {
        slot.cut = true
        slot.deadline.store(0, ordering: .relaxed)
        table.cut += 1
        shutdown(slot.socket, Int32(SHUT_RDWR))
    }

    private func run() {
        while running.load(ordering: .acquiring) {
            usleep(interval)
            let now = monotonicNanoseconds()
            table.withLock { table in
                // Under pressure a deadline is brought forward to `pressureLimit` after its start.
                let early = table.open >= pressureMark ? limit - pressureLimit : 0
                for slot in table.slots.values where !slot.cut {
                    let deadline = slot.deadline.load(ordering: .relaxed)
                    // Not when a request completed meanwhile and set a new deadline.
                    guard deadline != 0, deadline - early <= now,
                          slot.deadline.compareExchange(expected: deadline, desired: 0, ordering: .relaxed).exchanged else { continue }
                    Self.cut(slot, in: &table)
                }
                // Above the high-water mark with no connection opening (libmicrohttpd stops
                // accepting at the limit): shed down to it.
                while table.open > highWater && shedOne(&table, now: now) {}
            }
        }
    }
}
