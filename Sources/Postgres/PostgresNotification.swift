/// A notification (`NOTIFY channel, 'payload'`) received on a connection that listens.
public struct PostgresNotification: Sendable, Equatable {
    public let channel: String
    public let payload: String
    /// The process id of the server backend that sent it.
    public let senderPID: Int32
}
