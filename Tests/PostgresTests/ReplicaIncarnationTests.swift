import JSONCodec
@testable import MicroHTTP
import PostgresCluster
@testable import ScrollStackPostgres
@testable import ScrollStackService
import ScrollStackStore
import Synchronization
import XCTest

/// A replica brings a cached stack forward by reading its journal's head (or the state its
/// failed write started from) and then the records after it. Another replica may delete the
/// stack and create it again between those two reads, and the new incarnation's revisions
/// may go on past the cached one: replica 1's backend here deletes and re-creates the stack
/// on replica 0 at exactly that moment (`InterposingBackend`), so each path meets the
/// interleaving every time. The new incarnation's records must never be applied to the
/// former one's state, and neither path may answer a conflict or a 503.
final class ReplicaIncarnationTests: XCTestCase {
    var cluster: PostgresCluster!
    var replicas: [StackService] = []
    var interposing: InterposingBackend!

    override func setUpWithError() throws {
        cluster = try PostgresCluster()
        let plain = try PostgresJournal(url: cluster.url, connections: 4)
        interposing = InterposingBackend(base: try PostgresJournal(url: cluster.url, connections: 4))
        for backend in [plain as any JournalBackend, interposing as any JournalBackend] {
            let service = StackService(journal: StackJournal(backend: backend))
            _ = try service.restore()
            service.startReplication()
            replicas.append(service)
        }
    }

    override func tearDown() {
        replicas.forEach { $0.stopReplication() }
        replicas = []
        interposing = nil
        cluster = nil
    }

    @discardableResult
    func send(_ replica: Int, _ method: String, _ path: String, _ body: String? = nil) -> HTTPResponse {
        replicas[replica].handle(HTTPRequest(method: method, path: path, headers: [("Content-Type", "application/json")],
                                             body: Array((body ?? "").utf8)))
    }

    static func row(_ id: String) -> String { #"{"id": "\#(id)", "view": {"type": "V"}, "size": {"fixed": 10}}"# }

    func insert(_ replica: Int, _ stack: String, _ id: String) -> HTTPResponse {
        send(replica, "POST", "/v1/stacks/\(stack)/rows", #"{"rows": [\#(Self.row(id))]}"#)
    }

    /// The stack's row ids and revision as `replica` answers them (asserting a 200).
    func state(_ replica: Int, _ stack: String) -> (rows: [String], revision: Int?) {
        let response = send(replica, "GET", "/v1/stacks/\(stack)")
        XCTAssertEqual(response.status, 200, String(decoding: response.body, as: UTF8.self))
        let body = try? JSON.parse(response.body)
        return (body?["rows"]?.arrayValue?.compactMap { $0["id"]?.stringValue } ?? [],
                body?["revision"]?.int64Value.map(Int.init))
    }

    /// A live event stream of `stack` on `replica`.
    func events(_ replica: Int, _ stack: String) throws -> HTTPStream {
        let response = replicas[replica].handle(HTTPRequest(method: "GET", path: "/v1/stacks/\(stack)/events",
                                                            headers: [("Accept", "text/event-stream")], body: []))
        XCTAssertEqual(response.status, 200)
        return try XCTUnwrap(response.stream, "an event stream")
    }

    /// The revision ids queued on `stream` and not yet taken.
    func sentIDs(_ stream: HTTPStream) -> [Int] {
        var bytes: [UInt8] = []
        var buffer = [CChar](repeating: 0, count: 4096)
        while true {
            let count = buffer.withUnsafeMutableBufferPointer { stream.read(into: $0.baseAddress!, capacity: $0.count) }
            guard count > 0 else { break }
            bytes += buffer[0..<count].map { UInt8(bitPattern: $0) }
        }
        return String(decoding: bytes, as: UTF8.self).split(separator: "\n").compactMap { $0.hasPrefix("id: ") ? Int($0.dropFirst(4)) : nil }
    }

    /// On `service` (replica 0): `stack` deleted, created again with row `new0`, and
    /// `new1`…`new<count>` inserted, so that the new incarnation stands at revision `count + 1`.
    static func recreate(_ stack: String, insertions count: Int, on service: StackService) {
        func send(_ method: String, _ path: String, _ body: String = "") -> Int {
            service.handle(HTTPRequest(method: method, path: path, headers: [("Content-Type", "application/json")], body: Array(body.utf8))).status
        }
        XCTAssertEqual(send("DELETE", "/v1/stacks/\(stack)"), 204)
        XCTAssertEqual(send("POST", "/v1/stacks", #"{"id": "\#(stack)", "rows": [\#(row("new0"))]}"#), 201)
        for k in 1...count { XCTAssertEqual(send("POST", "/v1/stacks/\(stack)/rows", #"{"rows": [\#(row("new" + String(k)))]}"#), 200) }
    }

    /// A read on replica 1 finds the head of the incarnation it caches (revision 3, its cache
    /// at 1); before it reads the records after 1, the stack is created again up to revision
    /// 5. The read answers the new incarnation whole, not revisions 2–5 of it applied on
    /// top of the former one's revision 1.
    func testAReadThatCatchesUpAcrossADeletionAndRecreationAnswersTheNewStack() throws {
        XCTAssertEqual(send(0, "POST", "/v1/stacks", #"{"id": "w", "rows": [\#(Self.row("old0"))]}"#).status, 201)
        XCTAssertEqual(state(1, "w").rows, ["old0"])
        let stream = try events(1, "w")
        replicas[1].stopReplication()
        for k in 1...2 { XCTAssertEqual(insert(0, "w", "old\(k)").status, 200) }

        let other = replicas[0]
        interposing.interposeOnce { Self.recreate("w", insertions: 4, on: other) }
        let read = state(1, "w")
        XCTAssertTrue(interposing.interposed, "the stack was created again between replica 1's two reads")
        XCTAssertEqual(read.rows, ["new0", "new1", "new2", "new3", "new4"])
        XCTAssertEqual(read.revision, 5)
        XCTAssertEqual(state(0, "w").rows, read.rows)
        // The stream followed the former incarnation: it ends, having carried none of the
        // new one's revisions as if they were its own (its client resumes on the new stack).
        XCTAssertEqual(sentIDs(stream), [])
        XCTAssertTrue(stream.isClosed)
    }

    /// A write on replica 1 is built on its cache (revision 1) and loses to revision 2;
    /// going back to the journal's state, it reads revision 1 of the incarnation it knows,
    /// and before it reads the records after it the stack is created again up to revision
    /// 4. The write is applied to the new incarnation (revision 5), never to a mixture.
    func testAWriteThatGoesBackToTheJournalAcrossADeletionAndRecreationLandsOnTheNewStack() throws {
        XCTAssertEqual(send(0, "POST", "/v1/stacks", #"{"id": "v", "rows": [\#(Self.row("old0"))]}"#).status, 201)
        XCTAssertEqual(state(1, "v").rows, ["old0"])
        let stream = try events(1, "v")
        replicas[1].stopReplication()
        XCTAssertEqual(insert(0, "v", "old1").status, 200)

        let other = replicas[0]
        interposing.interposeOnce { Self.recreate("v", insertions: 3, on: other) }
        let write = insert(1, "v", "late")
        XCTAssertTrue(interposing.interposed, "the stack was created again between replica 1's two reads")
        XCTAssertEqual(write.status, 200, String(decoding: write.body, as: UTF8.self))
        XCTAssertEqual((try? JSON.parse(write.body))?["revision"]?.int64Value, 5)
        for replica in 0..<2 {
            let now = state(replica, "v")
            XCTAssertEqual(now.rows, ["new0", "new1", "new2", "new3", "late"], "replica \(replica)")
            XCTAssertEqual(now.revision, 5, "replica \(replica)")
        }
        XCTAssertEqual(sentIDs(stream), [], "no revision of the new incarnation on the former one's stream")
        XCTAssertTrue(stream.isClosed)
    }
}

/// `PostgresJournal` as it is, except that the next read of a key's records after some
/// revision first runs the action given to `interposeOnce` (once, on the reading thread).
final class InterposingBackend: SharedJournalBackend {
    let base: PostgresJournal
    private let action = Mutex<(@Sendable () -> Void)?>(nil)
    private let ran = Atomic<Bool>(false)

    init(base: PostgresJournal) { self.base = base }

    /// Runs `body` just before the next records read, and never again.
    func interposeOnce(_ body: @escaping @Sendable () -> Void) { action.withLock { $0 = body } }

    /// Whether the action ran.
    var interposed: Bool { ran.load(ordering: .sequentiallyConsistent) }

    private func interpose() {
        guard let body = action.withLock({ current in defer { current = nil }; return current }) else { return }
        body()
        ran.store(true, ordering: .sequentiallyConsistent)
    }

    func records(key: String, after: Int, limit: Int) throws(JournalError) -> [JournalRecord] {
        interpose()
        return try base.records(key: key, after: after, limit: limit)
    }

    func records(key: String, after: Int, limit: Int, incarnation: Int64) throws(JournalError) -> [JournalRecord]? {
        interpose()
        return try base.records(key: key, after: after, limit: limit, incarnation: incarnation)
    }

    func create(key: String, snapshot: [UInt8]) throws(JournalError) -> Int64 { try base.create(key: key, snapshot: snapshot) }
    func createAll(_ journals: [(key: String, snapshot: [UInt8])]) throws(JournalError) -> [Int64] { try base.createAll(journals) }
    func append(key: String, record: JournalRecord, snapshot: [UInt8]?) throws(JournalError) {
        try base.append(key: key, record: record, snapshot: snapshot)
    }
    func appendLater(key: String, record: JournalRecord, snapshot: [UInt8]?) -> PendingWrite {
        base.appendLater(key: key, record: record, snapshot: snapshot)
    }
    func appendLater(key: String, record: JournalRecord, snapshot: [UInt8]?, after: PendingWrite?) -> PendingWrite {
        base.appendLater(key: key, record: record, snapshot: snapshot, after: after)
    }
    func appendLater(key: String, record: JournalRecord, snapshot: [UInt8]?, after: PendingWrite?, incarnation: Int64) -> PendingWrite {
        base.appendLater(key: key, record: record, snapshot: snapshot, after: after, incarnation: incarnation)
    }
    func delete(key: String) throws(JournalError) { try base.delete(key: key) }
    func writeSnapshot(key: String, revision: Int, snapshot: [UInt8], incarnation: Int64) throws(JournalError) -> Bool {
        try base.writeSnapshot(key: key, revision: revision, snapshot: snapshot, incarnation: incarnation)
    }
    func load(key: String?, upTo revision: Int) throws(JournalError) -> [StoredJournal] { try base.load(key: key, upTo: revision) }
    func plan(key: String, revision: Int) throws(JournalError) -> [UInt8]? { try base.plan(key: key, revision: revision) }
    func loadEach() throws(JournalError) -> LoadedJournals { try base.loadEach() }
    func head(key: String) throws(JournalError) -> JournalHead? { try base.head(key: key) }
    func heads() throws(JournalError) -> [String: JournalHead] { try base.heads() }
    func heads(keys: [String]) throws(JournalError) -> [String: JournalHead] { try base.heads(keys: keys) }
    func watch(changed: @escaping @Sendable (String, Int) -> Void, resynchronize: @escaping @Sendable () -> Void,
               poll: @escaping @Sendable () -> Void) {
        base.watch(changed: changed, resynchronize: resynchronize, poll: poll)
    }
    func stopWatching() { base.stopWatching() }
    func members(refreshing address: String?, liveness: Int) throws(JournalError) -> [String] {
        try base.members(refreshing: address, liveness: liveness)
    }
    func leave(address: String) throws(JournalError) { try base.leave(address: address) }
}
