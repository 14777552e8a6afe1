import Foundation
import Synchronization
import TestHTTPClient
import XCTest

/// Asks `/healthz` on a fresh connection, again and again on a thread of its own (pausing
/// `pause` milliseconds between probes), until `finish`, which asserts that the server kept
/// answering fresh clients meanwhile.
///
/// What it asserts is behaviour, not speed: every probe answered 200 within the client's 5 s
/// timeout (a server whose slots or threads are all held, or that serializes everything
/// behind the work under test, fails it: probes wait or are refused), and several probes were
/// answered *before* `finish` (while the work was still going on, not only after it). It
/// prints the slowest probe but bounds no latency: on the shared 2-core machine the scheduler
/// alone delays a single probe past any tight bound now and then, at high load averages.
final class HealthProbe: Sendable {
    private let stop = DispatchSemaphore(value: 0)
    private let results = Mutex<(count: Int, slowest: Double, failures: [String])>((0, 0, []))
    private let group = DispatchGroup()

    init(port: Int, pause: Int = 2) {
        DispatchQueue.global().async(group: group) { [self] in
            repeat {
                let start = DispatchTime.now().uptimeNanoseconds
                let outcome = Result { try TestHTTPConnection(port: port, timeout: 5).send(method: "GET", path: "/healthz").status }
                let seconds = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
                results.withLock { results in
                    results.count += 1
                    results.slowest = max(results.slowest, seconds)
                    if case .failure(let error) = outcome { results.failures.append("\(error)") }
                    if case .success(let status) = outcome, status != 200 { results.failures.append("status \(status)") }
                }
            } while stop.wait(timeout: .now() + .milliseconds(pause)) == .timedOut
        }
    }

    /// Stops probing; asserts that at least `atLeast` probes were answered before this call
    /// and that every probe was answered 200.
    func finish(label: String, atLeast: Int = 3, file: StaticString = #filePath, line: UInt = #line) {
        let during = results.withLock { $0.count }
        stop.signal()
        XCTAssertEqual(group.wait(timeout: .now() + 30), .success, "the prober stops", file: file, line: line)
        let seen = results.withLock { $0 }
        print("health probe: \(during) probes answered during \(label), slowest \(Int(seen.slowest * 1000)) ms (printed, not bounded)")
        XCTAssertGreaterThanOrEqual(during, atLeast, "fresh clients were answered while \(label) went on", file: file, line: line)
        XCTAssertEqual(seen.failures, [], file: file, line: line)
    }
}
