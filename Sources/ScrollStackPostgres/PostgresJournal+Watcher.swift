import Dispatch
import Postgres
import Synchronization

extension PostgresJournal {
    /// One connection that `LISTEN`s on the journal's channel, on a thread of its own. When
    /// the connection breaks it reconnects (one attempt per second, each bounded by the
    /// connect timeout), listens again and asks the owner to resynchronize, since
    /// notifications sent meanwhile are lost; it does so after its first connection too,
    /// for the changes made before it listened. Between waits it calls `poll` about once a
    /// second (on this thread), since a notification can also be lost with the replica that
    /// was to send it (`announce`).
    final class Watcher: Sendable {
        let url: String
        let channel: String
        let changed: @Sendable (String, Int) -> Void
        let resynchronize: @Sendable () -> Void
        let poll: @Sendable () -> Void
        private let stopped = Atomic<Bool>(false)
        private let done = DispatchSemaphore(value: 0)
        /// Signalled by `stop` to cut the pause between reconnection attempts short.
        private let wake = DispatchSemaphore(value: 0)

        init(url: String, channel: String, changed: @escaping @Sendable (String, Int) -> Void, resynchronize: @escaping @Sendable () -> Void,
             poll: @escaping @Sendable () -> Void) {
            self.url = url
            self.channel = channel
            self.changed = changed
            self.resynchronize = resynchronize
            self.poll = poll
        }

        func start() {
            DispatchQueue(label: "scrollstack.journal.watcher").async { [self] in
                loop()
                done.signal()
            }
        }

        /// Ends the loop within a second (its longest wait) and returns once it has.
        func stop() {
            stopped.store(true, ordering: .relaxed)
            wake.signal()
            done.wait()
            done.signal()
        }

        private func loop() {
            var connection: PostgresConnection?
            var polled = DispatchTime.now()
            while !stopped.load(ordering: .relaxed) {
                if connection != nil, DispatchTime.now() >= polled + .seconds(1) {
                    poll()
                    polled = DispatchTime.now()
                }
                do throws(PostgresError) {
                    if connection == nil {
                        let fresh = try PostgresConnection(url: url, connectTimeout: 2)
                        try fresh.listen(channel)
                        connection = fresh
                        // Whatever changed before this connection listened was not heard.
                        resynchronize()
                    }
                    // A payload is one line `REVISION KEY` per key.
                    for notice in try connection!.notifications(waitingUpTo: 1) {
                        for line in notice.payload.split(separator: "\n") {
                            let parts = line.split(separator: " ", maxSplits: 1)
                            guard parts.count == 2, let revision = Int(parts[0]) else { continue }
                            changed(String(parts[1]), revision)
                        }
                    }
                } catch {
                    // Lost (or not yet made): try again in a second, or stop at once.
                    connection = nil
                    _ = wake.wait(timeout: .now() + 1)
                }
            }
        }
    }
}
