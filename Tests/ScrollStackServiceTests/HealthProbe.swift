import Foundation
import Synchronization
import TestHTTPClient
import XCTest

/// Asks `/healthz` on a fresh connection, again and again on a thread of its own (pausing
/// `pause` milliseconds between probes), from `init` until `finish`, which asserts that the
/// server kept answering fresh clients.
///
/// What it asserts is behaviour, not speed: the prober's first probe is answered before
/// `init` returns (so it is running when the work under test starts); every probe is answered
/// 200 within the client's 5 s timeout (a server whose slots or threads are all held fails
/// it: probes wait or are refused); at least `duringAtLeast` probes are answered between
/// `init` and `finish` (for work long enough to measure that: a server that serializes
/// everything behind the work answers none); and a probe begun after the work is answered
/// too. It prints the slowest probe but bounds no latency: on the shared 2-core machine the
/// scheduler alone delays a single probe past any tight bound now and then.
final class HealthProbe: Sendable {
    private struct Results {
        var started = 0
        var answered = 0
        var slowest = 0.0
        var failures: [String] = []
    }

    private let stop = DispatchSemaphore(value: 0)
    /// Signalled after each probe.
    private let probed = DispatchSemaphore(value: 0)
    private let results = Mutex(Results())
    private let group = DispatchGroup()

    init(port: Int, pause: Int = 2, file: StaticString = #filePath, line: UInt = #line) {
        DispatchQueue.global().async(group: group) { [self] in
            repeat {
                results.withLock { $0.started += 1 }
                let start = DispatchTime.now().uptimeNanoseconds
                let outcome = Result { try TestHTTPConnection(port: port, timeout: 5).send(method: "GET", path: "/healthz").status }
                let seconds = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
                results.withLock { results in
                    results.answered += 1
                    results.slowest = max(results.slowest, seconds)
                    if case .failure(let error) = outcome { results.failures.append("\(error)") }
                    if case .success(let status) = outcome, status != 200 { results.failures.append("status \(status)") }
                }
                probed.signal()
            } while stop.wait(timeout: .now() + .milliseconds(pause)) == .timedOut
        }
        XCTAssertEqual(probed.wait(timeout: .now() + 30), .success, "the first probe", file: file, line: line)
    }

    /// Waits (30 s at most) for a probe begun after this call to be answered, stops probing,
    /// and asserts what the type's comment says.
    func finish(label: String, duringAtLeast: Int = 0, file: StaticString = #filePath, line: UInt = #line) {
        let (during, begun) = results.withLock { ($0.answered - 1, $0.started) }
        let deadline = DispatchTime.now() + 30
        while results.withLock({ $0.answered }) <= begun, probed.wait(timeout: deadline) == .success {}
        stop.signal()
        XCTAssertEqual(group.wait(timeout: .now() + 30), .success, "the prober stops", file: file, line: line)
        let seen = results.withLock { $0 }
        print("health probe: \(during) probes answered during \(label), \(seen.answered) in all, slowest \(Int(seen.slowest * 1000)) ms (printed, not bounded)")
        XCTAssertGreaterThan(seen.answered, begun, "a probe begun after \(label) was answered", file: file, line: line)
        XCTAssertGreaterThanOrEqual(during, duringAtLeast, "fresh clients were answered while \(label) went on", file: file, line: line)
        XCTAssertEqual(seen.failures, [], file: file, line: line)
    }
}
