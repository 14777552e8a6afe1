import JSONCodec
import MicroHTTP
@testable import ScrollStackService
import XCTest

/// Writes on a replica build on its cached entry without reading the journal's head first
/// (Semantics.md, "Writes on a replica without a head read"). Replica 1's watcher is
/// stopped here, so its cache stays behind replica 0's writes for as long as a test needs.
extension ReplicaBatchTests {
    func post(_ replica: Int, _ path: String, _ body: String, ifMatch: Int) -> HTTPResponse {
        replicas[replica].handle(HTTPRequest(method: "POST", path: path, headers: [("Content-Type", "application/json"), ("If-Match", "\"\(ifMatch)\"")],
                                             body: Array(body.utf8)))
    }

    func testAWriteOnACacheBehindTheJournalIsRetriedOnItAndIfMatchIsJudgedOnTheJournalsRevision() throws {
        XCTAssertEqual(send(0, "POST", "/v1/stacks", #"{"id": "s", "rows": []}"#).status, 201)
        XCTAssertEqual(send(1, "GET", "/v1/stacks/s").status, 200)
        replicas[1].stopReplication()
        for i in 0..<2 { XCTAssertEqual(send(0, "POST", "/v1/stacks/s/rows", Self.insert("a\(i)")).status, 200) }
        // Replica 1 holds revision 1: its append of revision 2 loses, and the write is applied
        // again on the journal's revision 3.
        let late = send(1, "POST", "/v1/stacks/s/rows", Self.insert("late"))
        XCTAssertEqual(late.status, 200, String(decoding: late.body, as: UTF8.self))
        XCTAssertEqual(revision(late), 4)
        XCTAssertEqual(send(0, "POST", "/v1/stacks/s/rows", Self.insert("a2")).status, 200)
        // Revision 5 is the journal's; the cache of replica 1 says 4. Judged on the cache it
        // would be 412: it is judged again on the journal's state.
        let matched = post(1, "/v1/stacks/s/rows", Self.insert("matched"), ifMatch: 5)
        XCTAssertEqual(matched.status, 200, String(decoding: matched.body, as: UTF8.self))
        XCTAssertEqual(revision(matched), 6)
        XCTAssertEqual(post(1, "/v1/stacks/s/rows", Self.insert("stale"), ifMatch: 5).status, 412)
        for replica in 0..<2 {
            XCTAssertEqual(Set(rowIDs(replica, "s")), ["a0", "a1", "late", "a2", "matched"], "replica \(replica)")
        }
        XCTAssertEqual(try journals[0].records(key: "s", after: 1, limit: 10).map(\.revision), [2, 3, 4, 5, 6])
    }

    func testAWriteBuiltOnAFormerIncarnationIsNeverAppendedToTheNewOne() throws {
        XCTAssertEqual(send(0, "POST", "/v1/stacks", #"{"id": "z", "rows": [{"id": "old", "view": {"type": "V"}, "size": {"fixed": 10}}]}"#).status, 201)
        XCTAssertEqual(rowIDs(1, "z"), ["old"])
        replicas[1].stopReplication()
        XCTAssertEqual(send(0, "DELETE", "/v1/stacks/z").status, 204)
        XCTAssertEqual(send(0, "POST", "/v1/stacks", #"{"id": "z", "rows": [{"id": "new", "view": {"type": "V"}, "size": {"fixed": 10}}]}"#).status, 201)
        // Replica 1 still caches the former z at revision 1, the new one's latest revision
        // too: only the incarnation tells them apart. Removing the former z's row "old" there
        // must not become revision 2 of the new z (which has no such row: its journal could
        // not be replayed).
        let removal = send(1, "DELETE", "/v1/stacks/z/rows/old")
        XCTAssertEqual(removal.status, 404, String(decoding: removal.body, as: UTF8.self))
        XCTAssertEqual(try journals[0].head(key: "z")?.revision, 1)
        let late = send(1, "POST", "/v1/stacks/z/rows", Self.insert("late"))
        XCTAssertEqual(late.status, 200, String(decoding: late.body, as: UTF8.self))
        XCTAssertEqual(revision(late), 2)
        for replica in 0..<2 { XCTAssertEqual(rowIDs(replica, "z"), ["new", "late"], "replica \(replica)") }
    }

    func testTheCommitMetricsCountEveryWriteOnPostgreSQL() throws {
        let metrics = ServiceMetrics(service: replicas[0])
        XCTAssertEqual(send(0, "POST", "/v1/stacks", #"{"id": "s", "rows": []}"#).status, 201)
        for i in 0..<3 { XCTAssertEqual(send(0, "POST", "/v1/stacks/s/rows", Self.insert("r\(i)")).status, 200) }
        let lines = String(decoding: metrics.exposition(), as: UTF8.self).split(separator: "\n")
        func value(_ name: String) -> Double? {
            lines.first { $0.hasPrefix(name + " ") }.flatMap { Double($0.split(separator: " ")[1]) }
        }
        XCTAssertEqual(value("scrollstack_journal_commit_writes_sum"), 3, "one write per transaction, one after the other")
        XCTAssertEqual(value("scrollstack_journal_commit_writes_count"), 3)
        XCTAssertEqual(value("scrollstack_journal_commit_duration_seconds_count"), 3)
        XCTAssertGreaterThan(try XCTUnwrap(value("scrollstack_journal_commit_duration_seconds_sum")), 0)
    }
}
