import Postgres
import PostgresCluster
import XCTest

/// The libpq layer against a real server (a throwaway cluster shared by these tests).
final class PostgresConnectionTests: XCTestCase {
    nonisolated(unsafe) static var cluster: PostgresCluster?

    override class func setUp() {
        super.setUp()
        cluster = try? PostgresCluster()
    }

    override class func tearDown() {
        cluster = nil
        super.tearDown()
    }

    func connect() throws -> PostgresConnection {
        let cluster = try XCTUnwrap(Self.cluster, "the PostgreSQL cluster did not start (Scripts/postgres-cluster.sh)")
        return try PostgresConnection(url: cluster.url)
    }

    func testBinaryParametersAndResultsRoundTripExactly() throws {
        let connection = try connect()
        let everyByte = (0...255).map(UInt8.init) + [0, 0, 39, 92]
        let text = "naïve 'quoted' \\ 数字 🎉"
        let rows = try connection.query("SELECT $1::bytea, $2::text, $3::int8, $4::int8, $5::bool, $6::text, (-5)::int4, (-3)::int2, length($1::bytea)",
                                        [.bytea(everyByte), .text(text), .integer(.min), .integer(.max), .bool(true), .null])
        XCTAssertEqual(rows, [[.bytea(everyByte), .text(text), .integer(.min), .integer(.max), .bool(true), .null, .integer(-5), .integer(-3), .integer(Int64(everyByte.count))]])
        XCTAssertEqual(try connection.query("SELECT $1::bytea", [.bytea([])]), [[.bytea([])]])
    }

    func testErrorsAreTypedWithTheServersState() throws {
        let connection = try connect()
        try connection.execute("CREATE TEMP TABLE t (k text, n int8, PRIMARY KEY (k, n))")
        try connection.query("INSERT INTO t VALUES ($1, $2)", [.text("a"), .integer(1)])
        XCTAssertThrowsError(try connection.query("INSERT INTO t VALUES ($1, $2)", [.text("a"), .integer(1)])) { error in
            let error = error as? PostgresError
            XCTAssertEqual(error?.kind, .query)
            XCTAssertEqual(error?.isUniqueViolation, true)
            XCTAssertEqual(error?.isUnavailable, false)
        }
        XCTAssertThrowsError(try connection.execute("SELEKT 1")) { error in
            XCTAssertEqual((error as? PostgresError)?.sqlState, "42601")
        }
        XCTAssertThrowsError(try connection.query("SELECT now()")) { error in
            XCTAssertEqual((error as? PostgresError)?.kind, .unsupportedType(1184))
        }
        // The connection stays usable after each refusal.
        XCTAssertEqual(try connection.query("SELECT count(*) FROM t"), [[.integer(1)]])
    }

    func testTransactionsCommitWholeOrNothing() throws {
        let connection = try connect()
        try connection.execute("CREATE TEMP TABLE log (n int8 PRIMARY KEY)")
        try connection.transaction { () throws(PostgresError) in
            try connection.query("INSERT INTO log VALUES (1)")
            try connection.query("INSERT INTO log VALUES (2)")
        }
        XCTAssertThrowsError(try connection.transaction { () throws(PostgresError) in
            try connection.query("INSERT INTO log VALUES (3)")
            try connection.query("INSERT INTO log VALUES (1)")
        })
        XCTAssertEqual(try connection.query("SELECT n FROM log ORDER BY n"), [[.integer(1)], [.integer(2)]])
    }

    /// The statements after the commit run as a transaction of their own, in the same round
    /// trip, once the first has ended; their failure changes nothing of the first's answer,
    /// and the connection goes on; arrays travel as parameters.
    func testStatementsAfterTheCommitRunOnTheirOwn() throws {
        let connection = try connect()
        try connection.execute("CREATE TEMP TABLE log (n int8 PRIMARY KEY, label text)")
        let insert = "INSERT INTO log SELECT * FROM unnest($1::int8[], $2::text[]) RETURNING n"
        let answers = try connection.transactionPipeline([(insert, [.integerArray([1, 2]), .textArray(["one", "two é"])])],
                                                         afterCommit: [("INSERT INTO log VALUES (3, 'three')", []), ("SELECT 1 / 0", [])])
        XCTAssertEqual(answers, [[[.integer(1)], [.integer(2)]]])
        // The second transaction failed whole: its insert is not kept.
        XCTAssertEqual(try connection.query("SELECT n, label FROM log ORDER BY n"), [[.integer(1), .text("one")], [.integer(2), .text("two é")]])
        _ = try connection.transactionPipeline([("INSERT INTO log VALUES (4, 'four')", [])],
                                               afterCommit: [("INSERT INTO log VALUES (5, 'five')", [])])
        XCTAssertEqual(try connection.query("SELECT n FROM log WHERE n > 3 ORDER BY n"), [[.integer(4)], [.integer(5)]])
        // A first transaction that fails throws its error; the one after it still runs.
        XCTAssertThrowsError(try connection.transactionPipeline([("INSERT INTO log VALUES (1, 'again')", [])],
                                                                afterCommit: [("INSERT INTO log VALUES (6, 'six')", [])]))
        XCTAssertEqual(try connection.query("SELECT n FROM log ORDER BY n"), [[.integer(1)], [.integer(2)], [.integer(4)], [.integer(5)], [.integer(6)]])
    }

    /// A committed first transaction is answered as committed even when the connection dies
    /// in the second (here the second ends its own session).
    func testAConnectionLostAfterTheCommitKeepsTheCommitsAnswer() throws {
        let connection = try connect(), observer = try connect()
        try observer.execute("CREATE TABLE IF NOT EXISTS after_commit_log (n int8 PRIMARY KEY)")
        try observer.execute("TRUNCATE after_commit_log")
        let answers = try connection.transactionPipeline([("INSERT INTO after_commit_log VALUES (1) RETURNING n", [])],
                                                         afterCommit: [("SELECT pg_terminate_backend(pg_backend_pid())", [])])
        XCTAssertEqual(answers, [[[.integer(1)]]])
        XCTAssertFalse(connection.isConnected)
        XCTAssertEqual(try observer.query("SELECT n FROM after_commit_log"), [[.integer(1)]])
        try connection.reset()
        XCTAssertEqual(try connection.transactionPipeline([("SELECT count(*) FROM after_commit_log", [])]), [[[.integer(1)]]])
    }

    /// A pipeline's statement is prepared once per session and run prepared after that; one
    /// whose preparation was skipped (an earlier statement failed) is prepared again on its
    /// next call, and a reset session prepares afresh.
    func testPipelinedStatementsArePreparedOncePerSession() throws {
        let connection = try connect()
        try connection.execute("CREATE TEMP TABLE log (n int8 PRIMARY KEY)")
        let insert = "INSERT INTO log VALUES ($1)"
        let preparedCount = "SELECT count(*) FROM pg_prepared_statements"
        XCTAssertThrowsError(try connection.transactionPipeline([("SELECT 1 / 0", []), (insert, [.integer(1)])]))
        XCTAssertEqual(try connection.query(preparedCount), [[.integer(1)]], "only the failing statement was prepared")
        for n in 2...4 {
            _ = try connection.transactionPipeline([(insert, [.integer(Int64(n))])])
        }
        XCTAssertEqual(try connection.query(preparedCount), [[.integer(2)]])
        XCTAssertEqual(try connection.query("SELECT n FROM log ORDER BY n"), [[.integer(2)], [.integer(3)], [.integer(4)]])
        try connection.reset()
        try connection.execute("CREATE TEMP TABLE log (n int8 PRIMARY KEY)")
        _ = try connection.transactionPipeline([(insert, [.integer(5)])])
        XCTAssertEqual(try connection.query(preparedCount), [[.integer(1)]])
        XCTAssertEqual(try connection.query("SELECT n FROM log"), [[.integer(5)]])
    }

    func testNotificationsArriveAtCommitOnly() throws {
        let listener = try connect(), sender = try connect()
        try listener.listen("changes")
        XCTAssertEqual(try listener.notifications(waitingUpTo: 0), [])
        XCTAssertThrowsError(try sender.transaction { () throws(PostgresError) in
            try sender.notify("changes", payload: "rolled back")
            throw PostgresError(kind: .query, message: "abandon")
        })
        try sender.transaction { () throws(PostgresError) in
            try sender.notify("changes", payload: "first")
            try sender.notify("changes", payload: "second")
        }
        var received: [PostgresNotification] = []
        let deadline = Date().addingTimeInterval(10)
        while received.count < 2, Date() < deadline {
            received += try listener.notifications(waitingUpTo: 1)
        }
        XCTAssertEqual(received.map(\.payload), ["first", "second"])
        XCTAssertEqual(Set(received.map(\.channel)), ["changes"])
    }

    func testThePoolReconnectsOnceTheServerIsBack() throws {
        let cluster = try PostgresCluster()
        let pool = PostgresPool(url: cluster.url, size: 2, connectTimeout: 2)
        XCTAssertEqual(try pool.withConnection { connection throws(PostgresError) in try connection.query("SELECT 1::int8") }, [[.integer(1)]])
        try cluster.stop()
        for _ in 0..<3 {
            XCTAssertThrowsError(try pool.withConnection { connection throws(PostgresError) in try connection.query("SELECT 1::int8") }) { error in
                XCTAssertEqual((error as? PostgresError)?.isUnavailable, true, "\(error)")
            }
        }
        try cluster.start()
        XCTAssertEqual(try pool.withConnection { connection throws(PostgresError) in try connection.query("SELECT 2::int8") }, [[.integer(2)]])
    }
}
