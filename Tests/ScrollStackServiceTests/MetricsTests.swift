import Foundation
import JSONCodec
import ScrollStackService
import TestHTTPClient
import XCTest

/// `GET /metrics` over real HTTP: off unless asked for, counting by route pattern, sampling
/// connections and streams, behind the tokens, and in Prometheus's text format.
final class MetricsTests: XCTestCase {
    static let writeToken = "w-metrics-0123456789abcdef"
    static let readToken = "r-metrics-0123456789abcdef"

    func scrape(_ server: ServerHarness, headers: [(String, String)] = []) throws -> Exposition {
        let reply = try server.request("GET", "/metrics", headers: headers)
        XCTAssertEqual(reply.status, 200)
        XCTAssertEqual(reply.header("Content-Type"), "text/plain; version=0.0.4; charset=utf-8")
        return try Exposition(String(decoding: reply.body, as: UTF8.self))
    }

    /// Scrapes until `condition` holds, for at most `seconds`; the last exposition. Polled: a
    /// request is recorded after its answer is sent, which the client is not told of.
    func scrape(_ server: ServerHarness, until condition: (Exposition) throws -> Bool, seconds: Double = 10) throws -> Exposition {
        let deadline = Date().addingTimeInterval(seconds)
        var exposition = try scrape(server)
        while try !condition(exposition) && Date() < deadline {
            exposition = try scrape(server)
        }
        return exposition
    }

    func testOffByDefaultMetricsIsAnUnknownRoute() throws {
        let server = try ServerHarness()
        defer { server.stop() }
        for method in ["GET", "HEAD", "OPTIONS"] {
            let reply = try server.request(method, "/metrics")
            XCTAssertEqual(reply.status, 404, method)
            if method != "HEAD" { XCTAssertEqual(reply.errorCode, "route_not_found", method) }
        }
    }

    func testRequestsAreCountedByRoutePatternMethodAndStatus() throws {
        let server = try ServerHarness(maxBodyBytes: 4096, metrics: true)
        defer { server.stop() }
        XCTAssertEqual(try server.request("POST", "/v1/stacks", json: object(("id", "m"), ("rows", [row("a"), row("b"), row("c")]))).status, 201)
        XCTAssertEqual(try server.raw("POST", "/v1/stacks", body: Array(repeating: 32, count: 5000),
                                      headers: [("Content-Type", "application/json")]).status, 413)
        XCTAssertEqual(try server.request("GET", "/v1/stacks/m").status, 200)
        XCTAssertEqual(try server.request("GET", "/v1/stacks/m").status, 200)
        XCTAssertEqual(try server.request("GET", "/v1/stacks/absent").status, 404)
        XCTAssertEqual(try server.request("GET", "/no/such/route").status, 404)
        XCTAssertEqual(try server.request("PUT", "/v1/stacks").status, 405)
        XCTAssertEqual(try server.request("BREW", "/v1/stacks").status, 405)
        XCTAssertEqual(try server.request("POST", "/v1/stacks/m/rows", json: object(("rows", [row("d")]))).status, 200)
        XCTAssertEqual(try server.request("GET", "/v1/stacks/m/rows/d").status, 200)

        let metrics = try scrape(server)
        func requests(_ route: String, _ method: String, _ status: Int) throws -> Double? {
            try metrics.value("scrollstack_http_requests_total", ["route": route, "method": method, "status": String(status)])
        }
        XCTAssertEqual(try metrics.types["scrollstack_http_requests_total"], "counter")
        XCTAssertEqual(try requests("/v1/stacks", "POST", 201), 1)
        XCTAssertEqual(try requests("/v1/stacks", "POST", 413), 1, "the HTTP layer's refusals are counted")
        XCTAssertEqual(try metrics.value("scrollstack_http_request_duration_seconds_count", ["route": "/v1/stacks", "method": "POST"]), 1,
                       "without a latency")
        XCTAssertEqual(try requests("/v1/stacks/{stack}", "GET", 200), 2)
        XCTAssertEqual(try requests("/v1/stacks/{stack}", "GET", 404), 1)
        XCTAssertEqual(try requests("unmatched", "GET", 404), 1)
        XCTAssertEqual(try requests("/v1/stacks", "PUT", 405), 1)
        XCTAssertEqual(try requests("/v1/stacks", "other", 405), 1, "methods outside HTTP's usual ones share one label")
        XCTAssertEqual(try requests("/v1/stacks/{stack}/rows", "POST", 200), 1)
        XCTAssertEqual(try requests("/v1/stacks/{stack}/rows/{row}", "GET", 200), 1)
        XCTAssertNil(try requests("/metrics", "GET", 200), "a scrape is counted once it is answered")
        // No label holds an id a client chose.
        for sample in metrics.samples {
            for value in sample.labels.values { XCTAssertFalse(value.contains("/m") || value.contains("absent") || value.contains("no/such"), value) }
        }

        // Latency: one histogram per route and method, every request in it, buckets cumulative.
        let route = ["route": "/v1/stacks/{stack}", "method": "GET"]
        XCTAssertEqual(metrics.types["scrollstack_http_request_duration_seconds"], "histogram")
        XCTAssertEqual(try metrics.value("scrollstack_http_request_duration_seconds_count", route), 3)
        XCTAssertEqual(try metrics.value("scrollstack_http_request_duration_seconds_bucket", route.merging(["le": "+Inf"]) { $1 }), 3)
        let buckets = metrics.samples.filter { $0.name == "scrollstack_http_request_duration_seconds_bucket" && $0.labels["route"] == route["route"]
            && $0.labels["method"] == "GET" }
        let ordered = buckets.sorted { Double($0.labels["le"]!)! < Double($1.labels["le"]!)! }
        XCTAssertEqual(ordered.count, 17)
        XCTAssertEqual(ordered.map(\.value), ordered.map(\.value).sorted(), "buckets are cumulative")
        let sum = try XCTUnwrap(try metrics.value("scrollstack_http_request_duration_seconds_sum", route))
        XCTAssertGreaterThan(sum, 0)
        XCTAssertLessThan(sum, 30)

        // What the service holds, and the journal's commits (the insert is one).
        XCTAssertEqual(try metrics.value("scrollstack_stacks"), 1)
        XCTAssertEqual(try metrics.value("scrollstack_rows"), 4)
        XCTAssertEqual(try metrics.value("scrollstack_piles"), 0)
        XCTAssertEqual(try metrics.value("scrollstack_stacks_unavailable"), 0)
        XCTAssertEqual(try metrics.value("scrollstack_journal_commit_duration_seconds_count"), 1)
        XCTAssertEqual(try metrics.value("scrollstack_journal_commit_writes_count"), 1)
        XCTAssertEqual(try metrics.value("scrollstack_journal_commit_writes_sum"), 1)
        XCTAssertNotNil(try metrics.value("scrollstack_journal_snapshots_pending"))
        XCTAssertGreaterThan(try XCTUnwrap(try metrics.value("process_resident_memory_bytes")), 1_048_576)

        let again = try scrape(server)
        XCTAssertEqual(try again.value("scrollstack_http_requests_total", ["route": "/metrics", "method": "GET", "status": "200"]), 1)
        XCTAssertEqual(try again.value("scrollstack_http_requests_total", ["route": "/v1/stacks/{stack}", "method": "GET", "status": "200"]), 2)
    }

    func testConnectionsAndEventStreamsAreSampledAtEachScrape() throws {
        let server = try ServerHarness(metrics: true)
        defer { server.stop() }
        XCTAssertEqual(try server.request("POST", "/v1/stacks", json: object(("id", "live"), ("rows", [row("a")]))).status, 201)
        let idle = try TestHTTPConnection(port: server.port)
        XCTAssertEqual(try idle.send(method: "GET", path: "/healthz").status, 200)
        let stream = try TestHTTPConnection(port: server.port)
        try stream.sendRaw(Array("GET /v1/stacks/live/events HTTP/1.1\r\nHost: x\r\nAccept: text/event-stream\r\n\r\n".utf8))
        XCTAssertEqual(try stream.readHead().status, 200)

        let open = try scrape(server)
        XCTAssertEqual(try open.value("scrollstack_event_streams_open"), 1)
        // The idle keep-alive connection, the stream's and the scrape's own.
        XCTAssertGreaterThanOrEqual(try XCTUnwrap(try open.value("scrollstack_http_open_connections")), 3)
        // The scrape and the stream, whose request lasts as long as the stream.
        XCTAssertGreaterThanOrEqual(try XCTUnwrap(try open.value("scrollstack_http_requests_in_flight")), 2)

        stream.close()
        idle.close()
        let closed = try scrape(server, until: { try $0.value("scrollstack_event_streams_open") == 0 && $0.value("scrollstack_http_open_connections") == 1 })
        XCTAssertEqual(try closed.value("scrollstack_event_streams_open"), 0)
        XCTAssertEqual(try closed.value("scrollstack_http_open_connections"), 1, "only the scrape's own connection is left")
        XCTAssertEqual(try closed.value("scrollstack_http_requests_in_flight"), 1)
    }

    func testTokensGuardMetricsWhenConfigured() throws {
        let tokens = try AccessTokens(lines: "\(Self.writeToken) write\n\(Self.readToken) read", source: "test")
        let server = try ServerHarness(tokens: tokens, metrics: true)
        defer { server.stop() }
        let none = try server.request("GET", "/metrics")
        XCTAssertEqual(none.status, 401)
        XCTAssertEqual(none.errorField, "Authorization")
        XCTAssertEqual(try server.request("GET", "//metrics/").status, 401, "the router's spellings of the path are guarded too")
        for other in ["/%6Detrics", "/metrics/x", "/metricsx", "/v1/metrics"] {
            XCTAssertEqual(try server.request("GET", other, headers: [("Authorization", "Bearer " + Self.readToken)]).errorCode,
                           "route_not_found", other)
        }
        XCTAssertEqual(try server.request("GET", "/metrics", headers: [("Authorization", "Bearer " + Self.writeToken + "x")]).status, 401)
        let read = try scrape(server, headers: [("Authorization", "Bearer " + Self.readToken)])
        XCTAssertEqual(try read.value("scrollstack_http_requests_total", ["route": "/metrics", "method": "GET", "status": "401"]), 3)
        XCTAssertEqual(try read.value("scrollstack_http_requests_total", ["route": "unmatched", "method": "GET", "status": "404"]), 4)
        XCTAssertEqual(try server.request("GET", "/healthz").status, 200, "the health check stays open")

        let post = try server.request("POST", "/metrics", headers: [("Authorization", "Bearer " + Self.writeToken)])
        XCTAssertEqual(post.status, 405)
        XCTAssertEqual(post.header("Allow"), "GET, HEAD")
        let options = try server.request("OPTIONS", "/metrics")
        XCTAssertEqual(options.status, 204)
        XCTAssertEqual(options.header("Allow"), "GET, HEAD, OPTIONS")
        let gzip = try server.request("GET", "/metrics", headers: [("Authorization", "Bearer " + Self.readToken), ("Accept-Encoding", "gzip")])
        XCTAssertEqual(gzip.status, 200)
        XCTAssertEqual(gzip.header("Content-Encoding"), "gzip", "the exposition is over 1 KiB, so compressed for scrapers that accept it")
    }

    /// `--metrics` and `SCROLLSTACK_METRICS` (found by reflection) turn it on; the restore of a
    /// data folder is timed and counted.
    func testTheDaemonServesMetricsOnlyWhenAskedAndTimesTheRestore() throws {
        let off = try DaemonProcess(["--in-memory", "--log-level", "notice"], environment: ["SCROLLSTACK_PORT": "0"])
        XCTAssertEqual(try httpRequest(port: try off.port(), method: "GET", path: "/metrics").status, 404)
        XCTAssertEqual(try off.finish(stop: true), 0)

        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("metrics-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let first = try DaemonProcess(["--data-dir", folder, "--metrics", "--log-level", "notice"], environment: ["SCROLLSTACK_PORT": "0"])
        let port = try first.port()
        try first.waitFor("metrics at")
        XCTAssertTrue(first.text.contains("metrics at http://127.0.0.1:\(port)/metrics"), first.text)
        let created = try httpRequest(port: port, method: "POST", path: "/v1/stacks", headers: [("Content-Type", "application/json")],
                                      body: object(("id", "kept"), ("rows", [row("a"), row("b")])).serialized())
        XCTAssertEqual(created.status, 201)
        let empty = try Exposition(try httpRequest(port: port, method: "GET", path: "/metrics").bodyString)
        XCTAssertEqual(try empty.value("scrollstack_restored_stacks"), 0)
        XCTAssertEqual(try empty.value("scrollstack_stacks"), 1)
        XCTAssertEqual(try first.finish(stop: true), 0)

        let second = try DaemonProcess(["--data-dir", folder, "--log-level", "notice"],
                                       environment: ["SCROLLSTACK_PORT": "0", "SCROLLSTACK_METRICS": "true"])
        let restored = try Exposition(try httpRequest(port: try second.port(), method: "GET", path: "/metrics").bodyString)
        XCTAssertEqual(try restored.value("scrollstack_restored_stacks"), 1)
        XCTAssertEqual(try restored.value("scrollstack_rows"), 2)
        let seconds = try XCTUnwrap(try restored.value("scrollstack_restore_duration_seconds"))
        XCTAssertGreaterThan(seconds, 0)
        XCTAssertLessThan(seconds, 20)
        XCTAssertEqual(try second.finish(stop: true), 0)
    }
}
