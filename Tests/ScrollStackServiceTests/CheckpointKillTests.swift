import Foundation
import Jansson
@testable import ScrollStackCore
@testable import ScrollStackService
import Synchronization
import TestHTTPClient
import XCTest

/// A daemon killed while its WAL is being checkpointed loses nothing it acknowledged.
final class CheckpointKillTests: XCTestCase {
    var directory: URL!

    override func setUpWithError() throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("sscheckpoint-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    }

    override func tearDown() {
        try? FileManager.default.removeItem(at: directory)
    }

    /// 12 times: with `--checkpoint-pages 1` every commit starts a checkpoint on the
    /// checkpoint thread, so one runs most of the time while three clients write; the daemon
    /// is killed with SIGKILL at a random moment; on restart every acknowledged mutation is
    /// there and none is half-applied (each inserts a pair of rows: both or neither).
    func testSIGKILLDuringCheckpointsLosesNoAcknowledgedMutation() throws {
        let dataDir = directory.appendingPathComponent("data").path
        let arguments = ["--data-dir", dataDir, "--log-level", "notice", "--checkpoint-pages", "1", "--threads", "4"]
        var acknowledged: [String: Int] = [:]  // pair id → revision
        // The kills' moments are the test's only random input: seeded and printed.
        let seed = ProcessInfo.processInfo.environment["SCROLLSTACK_KILL_SEED"].flatMap { UInt64($0) } ?? UInt64.random(in: 0...UInt64(UInt32.max))
        print("testSIGKILLDuringCheckpointsLosesNoAcknowledgedMutation seed \(seed) (replay with SCROLLSTACK_KILL_SEED=\(seed))")
        var generator = SplitMix64(seed: seed)
        for cycle in 0..<12 {
            let daemon = try Daemon.start(arguments)
            try check(port: daemon.port, acknowledged: acknowledged, cycle: cycle)
            if cycle == 0 {
                XCTAssertEqual(try httpRequest(port: daemon.port, method: "POST", path: "/v1/stacks", headers: [("Content-Type", "application/json")],
                                               body: object(("id", "crash")).serialized()).status, 201)
            }
            let acks = Mutex<[(String, Int)]>([])
            let stop = Atomic<Bool>(false)
            let port = daemon.port
            let clients = startThreads(3) { client in
                guard let connection = try? TestHTTPConnection(port: port) else { return }
                var n = 0
                while !stop.load(ordering: .relaxed) {
                    let pair = "c\(cycle)-\(client)-\(n)"
                    n += 1
                    let body = object(("rows", [row(pair + "a"), row(pair + "b")]))
                    guard let response = try? connection.send(method: "POST", path: "/v1/stacks/crash/rows",
                                                               headers: [("Content-Type", "application/json")], body: body.serialized()) else { return }
                    if response.status == 200, let revision = Reply(response)["revision"]?.int64Value {
                        acks.withLock { $0.append((pair, Int(revision))) }
                    }
                }
            }
            // A random moment to kill at, not a synchronization: whatever the clients got
            // acknowledged by then must survive.
            let delay = UInt32.random(in: 30_000...200_000, using: &generator)
            print("cycle \(cycle): SIGKILL after \(delay / 1000) ms")
            usleep(delay)
            kill(daemon.process.processIdentifier, SIGKILL)
            daemon.process.waitForExit(within: 30)
            stop.store(true, ordering: .relaxed)
            XCTAssertEqual(clients.wait(timeout: .now() + 60), .success, "cycle \(cycle): clients still running 60 s after the kill")
            for (pair, revision) in acks.withLock({ $0 }) { acknowledged[pair] = revision }
        }
        XCTAssertGreaterThan(acknowledged.count, 12, "too few writes acknowledged to mean anything")
        let last = try Daemon.start(arguments)
        try check(port: last.port, acknowledged: acknowledged, cycle: 12)
        last.process.terminate()
        last.process.waitForExit(within: 30)
    }

    private func check(port: Int, acknowledged: [String: Int], cycle: Int) throws {
        let response = try httpRequest(port: port, method: "GET", path: "/v1/stacks/crash")
        guard response.status == 200 else {
            XCTAssertTrue(acknowledged.isEmpty && cycle == 0, "cycle \(cycle): the stack is missing (\(response.status))")
            return
        }
        let reply = Reply(response)
        let ids = Set((reply["rows"]?.arrayValue ?? []).compactMap { $0["id"]?.stringValue })
        let revision = Int(reply["revision"]?.int64Value ?? 0)
        for (pair, acked) in acknowledged {
            XCTAssertTrue(ids.contains(pair + "a") && ids.contains(pair + "b"), "cycle \(cycle): acknowledged \(pair) (revision \(acked)) is missing")
            XCTAssertLessThanOrEqual(acked, revision, "cycle \(cycle)")
        }
        for id in ids where id.hasSuffix("a") {
            XCTAssertTrue(ids.contains(String(id.dropLast()) + "b"), "cycle \(cycle): \(id) is half of a pair")
        }
        XCTAssertEqual(ids.count, 2 * (revision - 1), "cycle \(cycle): every revision after the first added one pair")
    }
}
