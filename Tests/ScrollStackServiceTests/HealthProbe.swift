import Foundation
import Synchronization
import TestHTTPClient
import XCTest

/// Asks `/healthz` on a fresh connection, again and again on a thread of its own, until
/// `finish`, which asserts every answer came within 100 ms.
final class HealthProbe: Sendable {
    private let done = Atomic<Bool>(false)
    private let results = Mutex<(count: Int, slowest: Double, failures: [String])>((0, 0, []))
    private let group = DispatchGroup()

    init(port: Int) {
        DispatchQueue.global().async(group: group) { [self] in
            while !done.load(ordering: .acquiring) {
                let start = DispatchTime.now().uptimeNanoseconds
                let outcome = Result { try httpRequest(port: port, method: "GET", path: "/healthz").status }
                let seconds = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
                results.withLock { results in
                    results.count += 1
                    results.slowest = max(results.slowest, seconds)
                    if case .failure(let error) = outcome { results.failures.append("\(error)") }
                    if case .success(let status) = outcome, status != 200 { results.failures.append("status \(status)") }
                }
                usleep(2_000)  // pacing, not synchronization
            }
        }
    }

    /// Stops probing and asserts every probe answered 200 within 100 ms.
    func finish(label: String, file: StaticString = #filePath, line: UInt = #line) {
        done.store(true, ordering: .releasing)
        XCTAssertEqual(group.wait(timeout: .now() + 10), .success, file: file, line: line)
        let seen = results.withLock { $0 }
        print("health probe: \(seen.count) probes during \(label), slowest \(Int(seen.slowest * 1000)) ms")
        XCTAssertGreaterThan(seen.count, 5, file: file, line: line)
        XCTAssertEqual(seen.failures, [], file: file, line: line)
        XCTAssertLessThan(seen.slowest, 0.1, "every /healthz within 100 ms during \(label)", file: file, line: line)
    }
}
