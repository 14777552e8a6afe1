import CMicroHTTPD
import Synchronization

#if canImport(Glibc)
import Glibc
#endif

/// What `StreamMonitor` watches: an open stream, or a deferred answer's suspended
/// connection. `abandon` is called when its client hangs up; `sweep` a few times per
/// heartbeat interval.
protocol HangUpWatched: AnyObject, Sendable {
    func abandon()
    func sweep(now: UInt64, interval: UInt64, idleTimeout: UInt64)
}

extension HTTPStream: HangUpWatched {}

/// Watches the connections of open streams (and of deferred answers), on a thread of its own.
///
/// A streaming connection spends its life suspended, and libmicrohttpd does not poll a
/// suspended connection's socket: a client that went away would hold its slot and descriptor
/// until the next write failed. So the monitor keeps each stream's socket in an epoll set,
/// for hang-ups only (`EPOLLRDHUP`: the client closed or shut down its side; `EPOLLHUP`,
/// `EPOLLERR`: the connection failed), and abandons the stream at once, which makes
/// libmicrohttpd close the connection. It never reads or closes a socket itself.
///
/// It also sweeps every stream a few times per heartbeat interval: a stream quiet for the
/// interval gets its heartbeat (so a client gone without a FIN, its machine off, say, is
/// noticed when writes fail), and one without a write for the idle timeout is closed.
///
/// - Complexity: O(1) per hang-up; O(streams) per sweep.
final class StreamMonitor: @unchecked Sendable {
    private struct Watched {
        let stream: any HangUpWatched
        let socket: Int32
    }

    private let epoll: Int32
    /// An eventfd in the epoll set: written to wake the thread for `stop`.
    private let wakeup: Int32
    private let interval: UInt64
    private let idleTimeout: UInt64
    private let watched = SleepingLock<(byToken: [UInt64: Watched], tokens: [ObjectIdentifier: UInt64], next: UInt64)>(([:], [:], 1))
    private let running = Atomic<Bool>(true)
    private var thread = pthread_t()

    /// Starts the thread. `heartbeat` and `idleTimeout` are in seconds.
    init(heartbeat: Double, idleTimeout: Double) throws(HTTPServerError) {
        interval = UInt64(max(0.001, heartbeat) * 1e9)
        self.idleTimeout = UInt64(max(0.001, idleTimeout) * 1e9)
        epoll = epoll_create1(Int32(EPOLL_CLOEXEC))
        wakeup = eventfd(0, Int32(EFD_CLOEXEC) | Int32(EFD_NONBLOCK))
        guard epoll >= 0, wakeup >= 0 else {
            if epoll >= 0 { close(epoll) }
            if wakeup >= 0 { close(wakeup) }
            throw HTTPServerError(message: "cannot watch streams: \(String(cString: strerror(errno)))")
        }
        var event = epoll_event(events: EPOLLIN.rawValue, data: epoll_data_t(u64: 0))
        epoll_ctl(epoll, EPOLL_CTL_ADD, wakeup, &event)
        let context = Unmanaged.passRetained(self).toOpaque()
        let created = pthread_create(&thread, nil, { context in
            let monitor = Unmanaged<StreamMonitor>.fromOpaque(context!).takeRetainedValue()
            monitor.run()
            return nil
        }, context)
        guard created == 0 else {
            Unmanaged<StreamMonitor>.fromOpaque(context).release()
            close(epoll)
            close(wakeup)
            throw HTTPServerError(message: "cannot start the stream monitor: error \(created)")
        }
    }

    /// Watches `stream`, served on `socket`, until `forget`.
    func watch(_ stream: any HangUpWatched, socket: Int32) {
        guard socket >= 0 else { return }
        let token = watched.withLock { watched -> UInt64 in
            let token = watched.next
            watched.next += 1
            watched.byToken[token] = Watched(stream: stream, socket: socket)
            watched.tokens[ObjectIdentifier(stream)] = token
            return token
        }
        var event = epoll_event(events: EPOLLRDHUP.rawValue | EPOLLHUP.rawValue | EPOLLERR.rawValue, data: epoll_data_t(u64: token))
        epoll_ctl(epoll, EPOLL_CTL_ADD, socket, &event)
    }

    /// Stops watching `stream` (it ended). libmicrohttpd frees a stream before it closes the
    /// socket, so the descriptor still names this connection here.
    func forget(_ stream: any HangUpWatched) {
        guard let entry = watched.withLock({ watched -> Watched? in
            guard let token = watched.tokens.removeValue(forKey: ObjectIdentifier(stream)) else { return nil }
            return watched.byToken.removeValue(forKey: token)
        }) else { return }
        epoll_ctl(epoll, EPOLL_CTL_DEL, entry.socket, nil)
    }

    /// Ends the thread and waits for it.
    func stop() {
        guard running.exchange(false, ordering: .acquiringAndReleasing) else { return }
        var one: UInt64 = 1
        _ = write(wakeup, &one, 8)
        pthread_join(thread, nil)
        close(epoll)
        close(wakeup)
    }

    private func run() {
        // A few sweeps per interval, so heartbeats and idle closes are late by a quarter at most.
        let tick = Int32(clamping: max(5, min(1000, Int(min(interval, idleTimeout) / 4 / 1_000_000))))
        var events = [epoll_event](repeating: epoll_event(), count: 64)
        var nextSweep = monotonicNanoseconds() + UInt64(tick) * 1_000_000
        while running.load(ordering: .acquiring) {
            let ready = epoll_wait(epoll, &events, Int32(events.count), tick)
            for event in events.prefix(max(0, Int(ready))) where event.data.u64 != 0 {
                let gone = watched.withLock { watched -> Watched? in
                    guard let entry = watched.byToken.removeValue(forKey: event.data.u64) else { return nil }
                    watched.tokens[ObjectIdentifier(entry.stream)] = nil
                    return entry
                }
                guard let gone else { continue }
                // Level-triggered: stop watching before the stream is dropped.
                epoll_ctl(epoll, EPOLL_CTL_DEL, gone.socket, nil)
                gone.stream.abandon()
            }
            let now = monotonicNanoseconds()
            if now >= nextSweep {
                nextSweep = now + UInt64(tick) * 1_000_000
                for entry in watched.withLock({ Array($0.byToken.values) }) {
                    entry.stream.sweep(now: now, interval: interval, idleTimeout: idleTimeout)
                }
            }
        }
    }
}
