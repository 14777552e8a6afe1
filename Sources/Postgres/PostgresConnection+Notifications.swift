import CPostgres

#if canImport(Glibc)
import Glibc
#endif

extension PostgresConnection {
    /// Subscribes this connection to `channel` (`LISTEN`); notifications arrive through
    /// `notifications(waitingUpTo:)`.
    public func listen(_ channel: String) throws(PostgresError) {
        try execute("LISTEN " + quoted(identifier: channel))
    }

    /// Sends `payload` on `channel` (`pg_notify`); inside a transaction it is delivered at
    /// COMMIT, and not at all on ROLLBACK.
    public func notify(_ channel: String, payload: String) throws(PostgresError) {
        try query("SELECT pg_notify($1, $2)", [.text(channel), .text(payload)])
    }

    /// The notifications received so far, waiting up to `seconds` for the first one when
    /// there is none yet (`poll(2)` on the socket, so a waiting thread uses no CPU).
    ///
    /// - Throws: `.connection` when the connection broke (reset it, listen again).
    public func notifications(waitingUpTo seconds: Double) throws(PostgresError) -> [PostgresNotification] {
        var received = try drain()
        guard received.isEmpty, seconds > 0 else { return received }
        var descriptor = pollfd(fd: socket, events: Int16(POLLIN), revents: 0)
        guard descriptor.fd >= 0 else { throw PostgresError(kind: .connection, message: "the connection has no socket") }
        let ready = poll(&descriptor, 1, Int32(min(seconds, 3600) * 1000))
        if ready > 0 { received = try drain() }
        return received
    }

    private func drain() throws(PostgresError) -> [PostgresNotification] {
        guard PQconsumeInput(rawHandle) == 1 else { throw PostgresError(kind: .connection, message: lastMessage) }
        var received: [PostgresNotification] = []
        while let notice = PQnotifies(rawHandle) {
            received.append(PostgresNotification(channel: String(cString: notice.pointee.relname),
                                                 payload: String(cString: notice.pointee.extra),
                                                 senderPID: notice.pointee.be_pid))
            PQfreemem(notice)
        }
        return received
    }
}
