import Dispatch
import Foundation
import JSONCodec
import MicroHTTP
import Postgres
import PostgresCluster
import ScrollStackPostgres
@testable import ScrollStackService
import ScrollStackStore
import TestHTTPClient
import XCTest

/// Replicas with addresses (Semantics.md, "One writer per stack"): every write to a contended
/// stack is made by the member of highest rendezvous weight, the others forwarding it there
/// and answering with its answer; a stack written through one replica only is written there;
/// an owner that cannot be reached leaves the write to the replica it reached, and one that
/// took the request without answering makes it 503 with Retry-After.
final class WriteOwnerTests: XCTestCase {
    /// A replica served over HTTP on loopback.
    struct Replica {
        let service: StackService
        let server: HTTPServer
        var address: String { "http://127.0.0.1:\(server.port)" }
    }

    var cluster: PostgresCluster!
    var replicas: [Replica] = []

    override func setUpWithError() throws {
        cluster = try PostgresCluster()
        for _ in 0..<3 { replicas.append(try replica()) }
        // Each sees every member once it has looked again (the watcher does each second).
        for replica in replicas { replica.service.refreshWriters() }
        XCTAssertEqual(replicas[0].service.writeOwners.withLock { $0 }?.members.count, 3)
    }

    override func tearDown() {
        for replica in replicas {
            replica.server.stop()
            replica.service.stopReplication()
        }
        replicas = []
        cluster = nil
    }

    /// A replica whose address is known only once its server listens: it starts replicating
    /// (and becomes a member) after.
    func replica(contentionSeconds: Double = 2) throws -> Replica {
        let service = StackService(journal: StackJournal(backend: try PostgresJournal(url: cluster.url, connections: 4)))
        _ = try service.restore()
        let edge = ServiceEdge(service: service, cors: try CORSPolicy(), tokens: AccessTokens(), hosts: .any, metrics: nil, maxBodyBytes: 1 << 20)
        let server = HTTPServer(configuration: HTTPServer.Configuration(host: "127.0.0.1", port: 0, threads: 2, maxBodyBytes: 1 << 20,
                                                                        connectionTimeout: 30, connectionLimit: 64),
                                handler: { edge.handle($0) }, errorResponder: { edge.respond(to: $0, failure: $1) })
        server.headGate = { edge.admission($0) }
        try server.start()
        service.startReplication(address: "http://127.0.0.1:\(server.port)", forwarder: HTTPForwarder(), contentionSeconds: contentionSeconds)
        return Replica(service: service, server: server)
    }

    func request(_ replica: Replica, _ method: String, _ path: String, _ body: String? = nil,
                 headers: [(String, String)] = []) throws -> TestHTTPResponse {
        try httpRequest(port: replica.server.port, method: method, path: path,
                        headers: headers + (body == nil ? [] : [("Content-Type", "application/json")]), body: body.map { Array($0.utf8) })
    }

    func counts(_ replica: Replica) -> (forwarded: Int, unreachable: Int) {
        let owners = replica.service.writeOwners.withLock { $0 }!
        return (owners.forwarded.load(ordering: .relaxed), owners.unreachable.load(ordering: .relaxed))
    }

    /// The index of the replica writing `id`, as every replica computes it.
    func owner(of id: String) -> Int { owner(ofAmong: 0..<replicas.count, id) }

    /// The index of the replica writing `id` among the members `indices`.
    func owner(ofAmong indices: Range<Int>, _ id: String) -> Int {
        let addresses = replicas[indices].map(\.address)
        let best = addresses.max { WriteOwners.weight($0, id) < WriteOwners.weight($1, id) }!
        return addresses.firstIndex(of: best)!
    }

    func testEveryWriteOfAStackIsMadeByItsOwner() throws {
        XCTAssertEqual(try request(replicas[0], "POST", "/v1/stacks", #"{"id": "feed", "rows": []}"#).status, 201)
        let writer = owner(of: "feed")
        var revisions: [Int] = []
        for round in 0..<3 {
            for (index, replica) in replicas.enumerated() {
                // Contended, as hearing each other's revisions makes it (a test of its own, below).
                replicas.forEach { $0.service.noteConflict("feed") }
                let answer = try request(replica, "POST", "/v1/stacks/feed/rows", #"{"rows": [{"id": "r\#(round)-\#(index)", "view": {"type": "Cell"}, "size": {"fixed": 44}}]}"#)
                XCTAssertEqual(answer.status, 200, String(decoding: answer.body, as: UTF8.self))
                let revision = try XCTUnwrap(try JSON.parse(answer.body)["revision"]?.int64Value)
                XCTAssertEqual(answer.header("ETag"), "\"\(revision)\"", "the owner's fields come back")
                XCTAssertEqual(answer.header("Content-Type"), "application/json")
                revisions.append(Int(revision))
            }
        }
        XCTAssertEqual(revisions, Array(2...10), "one writer: revisions in the order written")
        for (index, replica) in replicas.enumerated() {
            XCTAssertEqual(counts(replica).forwarded, index == writer ? 0 : 3, "replica \(index); the owner is \(writer)")
            XCTAssertEqual(counts(replica).unreachable, 0)
        }
        // A refusal by the owner comes back as it answered it.
        replicas.forEach { $0.service.noteConflict("feed") }
        let refused = try request(replicas[(writer + 1) % 3], "POST", "/v1/stacks/feed/rows", #"{"rows": [{"id": "r0-0", "view": {"type": "Cell"}, "size": {"fixed": 44}}]}"#)
        XCTAssertEqual(refused.status, 409, String(decoding: refused.body, as: UTF8.self))
        XCTAssertEqual(try JSON.parse(refused.body)["error"]?["code"]?.stringValue, "duplicate_id")
        XCTAssertEqual(counts(replicas[(writer + 1) % 3]).forwarded, 4)
        // Reads are answered where they arrive, and agree.
        let layouts = try replicas.map { try request($0, "GET", "/v1/stacks/feed/layout").body }
        XCTAssertEqual(Set(layouts).count, 1)
    }

    /// A stack written through one replica only is written there; after a sign of
    /// contention its writes go to its owner, and come back once the sign is older than
    /// `contentionSeconds` and the owner saw no other source.
    func testOnlyAContendedStackIsForwarded() throws {
        // The default window (2 s): a shorter one could run out before a loaded machine
        // handles the contended write.
        replicas.append(try replica())
        replicas.forEach { $0.service.refreshWriters() }
        let id = (0...).lazy.map { "calm\($0)" }.first { self.owner(of: $0) != 3 }!
        let writer = replicas[3]
        XCTAssertEqual(try request(replicas[0], "POST", "/v1/stacks", #"{"id": "\#(id)", "rows": []}"#).status, 201)
        let insert = #"{"rows": [{"view": {"type": "Cell"}, "size": {"fixed": 44}}]}"#
        XCTAssertEqual(try request(writer, "POST", "/v1/stacks/\(id)/rows", insert).status, 200)
        XCTAssertEqual(counts(writer).forwarded, 0, "written here: nothing contends")
        writer.service.noteConflict(id)
        XCTAssertEqual(try request(writer, "POST", "/v1/stacks/\(id)/rows", insert).status, 200)
        XCTAssertEqual(counts(writer).forwarded, 1, "contended: to its owner")
        // The owner saw one source: the sign is not renewed, and runs out.
        XCTAssertTrue(eventually(10) { !writer.service.writeOwners.withLock { $0 }!.isContended(id) })
        XCTAssertEqual(try request(writer, "POST", "/v1/stacks/\(id)/rows", insert).status, 200)
        XCTAssertEqual(counts(writer).forwarded, 1, "written here again")
    }

    /// The owner answers a forwarded write with the contended mark while the stack's writes
    /// come from more than one source, and a forwarder hearing it renews its sign.
    func testTheOwnerTellsForwardersWhileSeveralSourcesWriteAStack() throws {
        XCTAssertEqual(try request(replicas[0], "POST", "/v1/stacks", #"{"id": "busy", "rows": []}"#).status, 201)
        let writer = owner(of: "busy")
        let insert = #"{"rows": [{"view": {"type": "Cell"}, "size": {"fixed": 44}}]}"#
        let first = try request(replicas[writer], "POST", "/v1/stacks/busy/rows", insert, headers: [(WriteOwners.forwardedHeader, "http://a")])
        XCTAssertEqual(first.status, 200)
        XCTAssertNil(first.header(WriteOwners.contendedHeader), "one source so far")
        let second = try request(replicas[writer], "POST", "/v1/stacks/busy/rows", insert, headers: [(WriteOwners.forwardedHeader, "http://b")])
        XCTAssertEqual(second.header(WriteOwners.contendedHeader), "1", "two sources")
        let forwarder = replicas[(writer + 1) % 3]
        forwarder.service.noteConflict("busy")
        let before = DispatchTime.now().uptimeNanoseconds
        let relayed = try request(forwarder, "POST", "/v1/stacks/busy/rows", insert)
        XCTAssertEqual(relayed.status, 200)
        XCTAssertNil(relayed.header(WriteOwners.contendedHeader), "not passed on to the client")
        XCTAssertEqual(counts(forwarder).forwarded, 1)
        XCTAssertGreaterThanOrEqual(forwarder.service.writeOwners.withLock { $0 }!.lastContention(of: "busy") ?? 0, before, "renewed by the answer")
    }

    /// A request already forwarded (or a client asking so) is handled where it arrives.
    func testAForwardedRequestIsNotForwardedAgain() throws {
        XCTAssertEqual(try request(replicas[0], "POST", "/v1/stacks", #"{"id": "here", "rows": []}"#).status, 201)
        let other = (owner(of: "here") + 1) % 3
        replicas.forEach { $0.service.noteConflict("here") }
        let answer = try request(replicas[other], "POST", "/v1/stacks/here/rows", #"{"rows": [{"view": {"type": "Cell"}, "size": {"fixed": 44}}]}"#,
                                 headers: [(WriteOwners.forwardedHeader, "1")])
        XCTAssertEqual(answer.status, 200)
        XCTAssertEqual(counts(replicas[other]).forwarded, 0)
    }

    /// Adds a member at `address` to the store and has every replica see it.
    func addMember(_ address: String) throws {
        let connection = try PostgresConnection(url: cluster.url)
        _ = try connection.query("INSERT INTO members (address, seen) VALUES ($1, now() + interval '1 hour')", [.text(address)])
        for replica in replicas { replica.service.refreshWriters() }
    }

    /// A stack id that `address` writes among the members.
    func stackOwned(by address: String) -> String {
        let members = replicas.map(\.address) + [address]
        return (0...).lazy.map { "s\($0)" }.first { id in members.max { WriteOwners.weight($0, id) < WriteOwners.weight($1, id) } == address }!
    }

    func testAWriteWhoseOwnerCannotBeReachedIsMadeWhereItArrived() throws {
        let gone = try ScriptedServer { _ in }
        let address = gone.address
        gone.stop()
        try addMember(address)
        let id = stackOwned(by: address)
        XCTAssertEqual(try request(replicas[0], "POST", "/v1/stacks", #"{"id": "\#(id)", "rows": []}"#).status, 201)
        replicas.forEach { $0.service.noteConflict(id) }
        let answer = try request(replicas[1], "POST", "/v1/stacks/\(id)/rows", #"{"rows": [{"view": {"type": "Cell"}, "size": {"fixed": 44}}]}"#)
        XCTAssertEqual(answer.status, 200, String(decoding: answer.body, as: UTF8.self))
        XCTAssertEqual(counts(replicas[1]).unreachable, 1)
        XCTAssertEqual(try JSON.parse(try request(replicas[2], "GET", "/v1/stacks/\(id)").body)["revision"]?.int64Value, 2)
    }

    func testAWriteTakenButNotAnsweredIs503WithRetryAfter() throws {
        let silent = try ScriptedServer { connection in _ = connection.readRequest() }
        defer { silent.stop() }
        try addMember(silent.address)
        let id = stackOwned(by: silent.address)
        XCTAssertEqual(try request(replicas[0], "POST", "/v1/stacks", #"{"id": "\#(id)", "rows": []}"#).status, 201)
        replicas.forEach { $0.service.noteConflict(id) }
        let answer = try request(replicas[1], "POST", "/v1/stacks/\(id)/rows", #"{"rows": [{"view": {"type": "Cell"}, "size": {"fixed": 44}}]}"#)
        XCTAssertEqual(answer.status, 503)
        XCTAssertEqual(answer.header("Retry-After"), "1")
        XCTAssertEqual(try JSON.parse(answer.body)["error"]?["code"]?.stringValue, "storage_unavailable")
        XCTAssertEqual(try JSON.parse(try request(replicas[2], "GET", "/v1/stacks/\(id)").body)["revision"]?.int64Value, 1,
                       "not made here as well")
    }

    func testHealthNamesTheMembersAndAStoppedReplicaLeaves() throws {
        let health = try JSON.parse(try request(replicas[0], "GET", "/v1/health").body)
        XCTAssertEqual(health["writers"]?["address"]?.stringValue, replicas[0].address)
        XCTAssertEqual(health["writers"]?["members"]?.arrayValue?.compactMap(\.stringValue), replicas.map(\.address).sorted())
        let last = replicas.removeLast()
        last.server.stop()
        last.service.stopReplication()
        replicas[0].service.refreshWriters()
        let after = try JSON.parse(try request(replicas[0], "GET", "/v1/health").body)
        XCTAssertEqual(after["writers"]?["members"]?.arrayValue?.compactMap(\.stringValue), replicas.map(\.address).sorted())
    }
}
