import ArgumentParser
import ScrollStackService

/// `scrollstackd`'s options for a stack's history and live events: how much one answer or
/// catch-up holds, and how long a live stream stays open when quiet.
struct EventOptions: ParsableArguments {
    @Option(help: "The most bytes of events one history answer holds, and one live stream's catch-up sends before it ends (at least one revision each); the rest is linked by next, or sent after the client reconnects.")
    var eventsAnswerBytes = ServiceLimits().eventsAnswerBytes

    @Option(help: "Seconds a live event stream may stay quiet before a heartbeat comment is sent (notices clients gone without closing).")
    var streamHeartbeat = 15

    @Option(help: "Seconds a live event stream may go without an event before the server ends it (EventSource clients reconnect).")
    var streamIdleTimeout = 300

    func validate() throws {
        guard eventsAnswerBytes >= 1 else { throw ValidationError("--events-answer-bytes must be at least 1") }
        guard streamHeartbeat >= 1 else { throw ValidationError("--stream-heartbeat must be at least 1 second") }
        guard streamIdleTimeout >= 1 else { throw ValidationError("--stream-idle-timeout must be at least 1 second") }
    }
}
