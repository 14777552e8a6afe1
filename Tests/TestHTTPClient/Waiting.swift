import Foundation

/// Whether `condition` holds within `timeout` seconds, checked every 5 ms.
///
/// Polling, so only for state no event announces: the server's slot and stream counters
/// (`HTTPServer.openStreams`, `requestsInFlight`) and the count of live answer sources change
/// on the server's threads without notifying anyone. Whatever has an event (a thread's end, a
/// semaphore, a process's exit, a line or chunk read) is waited on with a deadline instead:
/// `startThreads` below, `DispatchSemaphore.wait(timeout:)`, a socket read with a timeout.
public func eventually(_ timeout: Double = 5, _ condition: () -> Bool) -> Bool {
    let deadline = DispatchTime.now().uptimeNanoseconds + UInt64(timeout * 1e9)
    while !condition() {
        if DispatchTime.now().uptimeNanoseconds > deadline { return false }
        usleep(5_000)
    }
    return true
}

/// Starts `count` threads running `body(i)` (each a thread of its own, so that blocking
/// clients run at once however many there are) and returns the group they leave as they
/// return: wait on it with a deadline, `group.wait(timeout: .now() + seconds)`.
public func startThreads(_ count: Int, _ body: @escaping @Sendable (Int) -> Void) -> DispatchGroup {
    let group = DispatchGroup()
    for i in 0..<count {
        group.enter()
        Thread {
            body(i)
            group.leave()
        }.start()
    }
    return group
}
