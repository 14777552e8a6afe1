import Dispatch
import Foundation
import JSONCodec
import MicroHTTP
import PostgresCluster
@testable import ScrollStackPostgres
@testable import ScrollStackService
import ScrollStackStore
import Synchronization
import XCTest

/// Two replicas (two services, each with its own `PostgresJournal`) over one real server,
/// with batched, pipelined writes (Semantics.md, "Batched writes on PostgreSQL"): a replica
/// whose batch lost its first revision to the other replica retries every write of it on
/// the new state, none answered before; a server restart with a batch in flight answers 503
/// to each of its writes and applies none.
final class ReplicaBatchTests: XCTestCase {
    var cluster: PostgresCluster!
    var journals: [PostgresJournal] = []
    var replicas: [StackService] = []

    override func setUpWithError() throws {
        cluster = try PostgresCluster()
        for _ in 0..<2 {
            let journal = try PostgresJournal(url: cluster.url, connections: 8)
            let service = StackService(journal: StackJournal(backend: journal))
            _ = try service.restore()
            service.startReplication()
            journals.append(journal)
            replicas.append(service)
        }
    }

    override func tearDown() {
        replicas.forEach { $0.stopReplication() }
        replicas = []
        journals = []
        cluster = nil
    }

    @discardableResult
    func send(_ replica: Int, _ method: String, _ path: String, _ body: String? = nil) -> HTTPResponse {
        replicas[replica].handle(HTTPRequest(method: method, path: path, headers: [("Content-Type", "application/json")],
                                             body: Array((body ?? "").utf8)))
    }

    static func insert(_ id: String) -> String {
        #"{"rows": [{"id": "\#(id)", "view": {"type": "V"}, "size": {"fixed": 10}}]}"#
    }

    /// Requests sent on threads of their own, and their answers by name.
    final class InFlight: Sendable {
        private let answers = Mutex<[String: HTTPResponse]>([:])
        private let group = DispatchGroup()

        func send(_ service: StackService, _ name: String, _ path: String, _ body: String) {
            group.enter()
            Thread { [self] in
                let response = service.handle(HTTPRequest(method: "POST", path: path, headers: [("Content-Type", "application/json")],
                                                          body: Array(body.utf8)))
                answers.withLock { $0[name] = response }
                group.leave()
            }.start()
        }

        /// Every answer, once all are in (60 s at most).
        func answered() -> [String: HTTPResponse] {
            XCTAssertEqual(group.wait(timeout: .now() + 60), .success, "every request answered within 60 s")
            return answers.withLock { $0 }
        }
    }

    /// Sends a write of stack `z` to replica 0 whose transaction waits for `hold`, so that
    /// replica 0's later appends queue for the next transaction.
    func holdReplica0(_ requests: InFlight) throws -> RowHold {
        let hold = try RowHold(url: cluster.url, key: "z")
        let appends = journals[0].appends
        requests.send(replicas[0], "blocker", "/v1/stacks/z/rows", Self.insert("b"))
        waitUntil("replica 0's transaction waits for the held row") { appends.taken.load(ordering: .relaxed) == 1 }
        return hold
    }

    func revision(_ response: HTTPResponse?) -> Int? {
        (try? JSON.parse(response?.body ?? []))?["revision"]?.int64Value.map(Int.init)
    }

    func rowIDs(_ replica: Int, _ stack: String) -> [String] {
        let body = try? JSON.parse(send(replica, "GET", "/v1/stacks/\(stack)").body)
        return body?["rows"]?.arrayValue?.compactMap { $0["id"]?.stringValue } ?? []
    }

    func testAReplicaWhoseBatchLostItsFirstRevisionRetriesEveryWriteOfItAndLosesNone() throws {
        XCTAssertEqual(send(0, "POST", "/v1/stacks", #"{"id": "s", "rows": []}"#).status, 201)
        XCTAssertEqual(send(0, "POST", "/v1/stacks", #"{"id": "z", "rows": []}"#).status, 201)
        XCTAssertEqual(send(1, "GET", "/v1/stacks/s").status, 200)
        let appends = journals[0].appends
        let requests = InFlight()
        let hold = try holdReplica0(requests)
        // Three writes of s applied on revision 1 and queued behind it: revisions 2, 3 and 4
        // of one run. Replica 1 takes revision 2 meanwhile.
        for i in 0..<3 { requests.send(replicas[0], "mine\(i)", "/v1/stacks/s/rows", Self.insert("m\(i)")) }
        waitUntil("replica 0's writes queued behind the held transaction") { appends.queuedCount == 3 }
        let theirs = send(1, "POST", "/v1/stacks/s/rows", Self.insert("theirs"))
        try hold.release()
        let answers = requests.answered()
        XCTAssertEqual(theirs.status, 200)
        XCTAssertEqual(revision(theirs), 2)
        XCTAssertEqual(answers["blocker"]?.status, 200)
        let mine = (0..<3).map { answers["mine\($0)"] }
        XCTAssertEqual(mine.map { $0?.status }, [200, 200, 200], "\(mine.map { String(decoding: $0?.body ?? [], as: UTF8.self) })")
        XCTAssertEqual(mine.compactMap(revision).sorted(), [3, 4, 5], "retried on the new state, after the winner's revision")
        for replica in 0..<2 {
            XCTAssertEqual(Set(rowIDs(replica, "s")), ["theirs", "m0", "m1", "m2"], "replica \(replica) has every acknowledged write")
            XCTAssertEqual(revision(send(replica, "GET", "/v1/stacks/s")), 5)
        }
        XCTAssertEqual(send(0, "GET", "/v1/stacks/s").body, send(1, "GET", "/v1/stacks/s").body)
        XCTAssertEqual(try journals[0].records(key: "s", after: 1, limit: 10).map(\.revision), [2, 3, 4, 5])
    }

    func testAServerRestartWithABatchInFlightAnswers503ToEachWriteAndAppliesNone() throws {
        XCTAssertEqual(send(0, "POST", "/v1/stacks", #"{"id": "s", "rows": []}"#).status, 201)
        XCTAssertEqual(send(0, "POST", "/v1/stacks", #"{"id": "z", "rows": []}"#).status, 201)
        XCTAssertEqual(send(1, "GET", "/v1/stacks/s").status, 200)
        let appends = journals[0].appends
        let requests = InFlight()
        let hold = try holdReplica0(requests)
        for i in 0..<2 { requests.send(replicas[0], "mine\(i)", "/v1/stacks/s/rows", Self.insert("m\(i)")) }
        waitUntil("replica 0's writes queued behind the held transaction") { appends.queuedCount == 2 }
        // Restarted after a crash: with a fast stop, the holder's session could end (releasing
        // its row lock) before the blocked transaction's, which could then commit on its way out.
        try cluster.crash()
        _ = try? hold.release()
        let answers = requests.answered()
        XCTAssertEqual(answers.count, 3)
        for (name, response) in answers {
            XCTAssertEqual(response.status, 503, name)
            XCTAssertNotNil(response.header("Retry-After"), name)
        }
        try cluster.start()
        // Requests in between answer 503 until the pools have reconnected.
        var status = 0
        let deadline = Date().addingTimeInterval(30)
        repeat { status = send(0, "GET", "/v1/stacks/s").status } while status != 200 && Date() < deadline
        XCTAssertEqual(status, 200)
        for replica in 0..<2 {
            var ids: [String] = ["?"]
            repeat { ids = send(replica, "GET", "/v1/stacks/s").status == 200 ? rowIDs(replica, "s") : ["?"] } while ids == ["?"] && Date() < deadline
            XCTAssertEqual(ids, [], "replica \(replica): nothing answered 503 was applied")
        }
        XCTAssertEqual(rowIDs(0, "z"), [])
        let next = send(0, "POST", "/v1/stacks/s/rows", Self.insert("after"))
        XCTAssertEqual(next.status, 200)
        XCTAssertEqual(revision(next), 2)
        XCTAssertEqual(rowIDs(1, "s"), ["after"])
    }
}
