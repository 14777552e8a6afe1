import Foundation
import JSONCodec
import ScrollStackService
import TestHTTPClient
import XCTest

/// CORS (preflights and answers, per route and origin setting) and bearer tokens, over HTTP.
final class BrowserAccessTests: XCTestCase {
    static let writeToken = "w-0123456789abcdef0123"
    static let readToken = "r-0123456789abcdef0123"

    func preflight(_ server: ServerHarness, _ path: String, method: String, origin: String = "https://plugin.example") throws -> Reply {
        try server.request("OPTIONS", path, headers: [("Origin", origin), ("Access-Control-Request-Method", method),
                                                      ("Access-Control-Request-Headers", "content-type, authorization")])
    }

    func testPreflightsAnswerEachRoutesMethodsAndHeaders() throws {
        let server = try ServerHarness()
        defer { server.stop() }
        try server.request("POST", "/v1/stacks", json: object(("id", "s"), ("rows", [row("a")])))
        let expected: [(path: String, methods: String, mutations: Bool)] = [
            ("/v1/stacks", "GET, HEAD, POST, OPTIONS", true),
            ("/v1/stacks/s", "DELETE, GET, HEAD, PATCH, PUT, OPTIONS", true),
            ("/v1/stacks/s/rows/a", "DELETE, GET, HEAD, PATCH, PUT, OPTIONS", true),
            ("/v1/stacks/s/layout", "GET, HEAD, OPTIONS", false),
            ("/v1/stacks/s/scroll", "POST, OPTIONS", true),
            ("/v1/layout", "POST, OPTIONS", true),
            ("/v1/stacks/s/events", "GET, HEAD, OPTIONS", false),
            ("/healthz", "GET, HEAD, OPTIONS", false),
        ]
        for route in expected {
            let reply = try preflight(server, route.path, method: "GET")
            XCTAssertEqual(reply.status, 204, route.path)
            XCTAssertEqual(reply.header("Access-Control-Allow-Methods"), route.methods, route.path)
            XCTAssertEqual(reply.header("Access-Control-Allow-Origin"), "*", route.path)
            XCTAssertNil(reply.header("Access-Control-Allow-Credentials"), "never * with credentials")
            XCTAssertNil(reply.header("Vary"), "with *, the answer does not depend on the origin")
            XCTAssertEqual(reply.header("Access-Control-Max-Age"), "600")
            let headers = reply.header("Access-Control-Allow-Headers") ?? ""
            XCTAssertTrue(headers.contains("Authorization"), route.path)
            XCTAssertTrue(headers.contains("Content-Type"), "a client sends one set of headers with every call: \(route.path)")
            XCTAssertEqual(headers.contains("If-Match"), route.mutations, route.path)
            XCTAssertEqual(headers.contains("Last-Event-ID"), route.path.hasSuffix("/events"), route.path)
        }
        XCTAssertEqual(try preflight(server, "/v1/nothing", method: "GET").status, 404)
        // A plain OPTIONS (no Origin) gets Allow.
        let plain = try server.request("OPTIONS", "/v1/stacks/s/rows")
        XCTAssertEqual(plain.status, 204)
        XCTAssertEqual(plain.header("Allow"), "DELETE, GET, HEAD, POST, OPTIONS")
        XCTAssertNil(plain.header("Access-Control-Allow-Origin"))
    }

    func testAnswersCarryCORSHeadersForAnyOriginByDefaultNullIncluded() throws {
        let server = try ServerHarness()
        defer { server.stop() }
        for origin in ["https://plugin.example", "null"] {
            let created = try server.request("POST", "/v1/stacks", json: object(("rows", [row("a")])), headers: [("Origin", origin)])
            XCTAssertEqual(created.status, 201)
            XCTAssertEqual(created.header("Access-Control-Allow-Origin"), "*")
            XCTAssertEqual(created.header("Access-Control-Expose-Headers"), "ETag, Location, WWW-Authenticate, Preference-Applied")
            let missing = try server.request("GET", "/v1/stacks/none", headers: [("Origin", origin)])
            XCTAssertEqual(missing.status, 404)
            XCTAssertEqual(missing.header("Access-Control-Allow-Origin"), "*", "errors are readable too")
            XCTAssertEqual(try preflight(server, "/v1/stacks", method: "POST", origin: origin).header("Access-Control-Allow-Origin"), "*")
        }
        XCTAssertNil(try server.request("GET", "/v1/stacks").header("Access-Control-Allow-Origin"), "no Origin, no CORS headers")
    }

    func testListedOriginsAreEchoedWithVaryAndOthersRefused() throws {
        let server = try ServerHarness(cors: try CORSPolicy(origins: ["https://figma.example", "null"]))
        defer { server.stop() }
        for origin in ["https://figma.example", "null"] {
            let reply = try server.request("GET", "/v1/stacks", headers: [("Origin", origin)])
            XCTAssertEqual(reply.header("Access-Control-Allow-Origin"), origin)
            XCTAssertEqual(reply.header("Access-Control-Allow-Credentials"), origin == "null" ? nil : "true", "never credentials with null")
            XCTAssertEqual(reply.header("Vary"), "Origin")
            let pre = try preflight(server, "/v1/stacks", method: "POST", origin: origin)
            XCTAssertEqual(pre.status, 204)
            XCTAssertEqual(pre.header("Access-Control-Allow-Origin"), origin)
            XCTAssertEqual(pre.header("Vary"), "Origin")
        }
        let other = try server.request("GET", "/v1/stacks", headers: [("Origin", "https://evil.example")])
        XCTAssertEqual(other.status, 200)
        XCTAssertNil(other.header("Access-Control-Allow-Origin"))
        XCTAssertEqual(other.header("Vary"), "Origin")
        let refused = try preflight(server, "/v1/stacks", method: "POST", origin: "https://evil.example")
        XCTAssertEqual(refused.status, 403)
        XCTAssertEqual(refused.errorCode, "origin_not_allowed")
        XCTAssertThrowsError(try CORSPolicy(origins: ["*", "https://a.example"]))
        XCTAssertThrowsError(try CORSPolicy(origins: ["https://a.example/path"]))
    }

    func tokens() throws -> AccessTokens {
        try AccessTokens(lines: "# comment\n\(Self.writeToken) write\n\n\(Self.readToken) read\n", source: "test")
    }

    func testTokensNoneWrongReadOnWriteAndWrite() throws {
        let server = try ServerHarness(tokens: try tokens())
        defer { server.stop() }
        let body = object(("id", "s"), ("rows", [row("a")]))
        func bearer(_ token: String) -> [(String, String)] { [("Authorization", "Bearer " + token)] }

        let none = try server.request("POST", "/v1/stacks", json: body)
        XCTAssertEqual(none.status, 401)
        XCTAssertEqual(none.header("WWW-Authenticate"), "Bearer realm=\"scrollstack\"")
        XCTAssertEqual(none.errorField, "Authorization")
        for wrong in [Self.writeToken + "x", String(Self.writeToken.dropLast()), "x" + Self.writeToken.dropFirst(), ""] {
            let reply = try server.request("GET", "/v1/stacks", headers: bearer(wrong))
            XCTAssertEqual(reply.status, 401, wrong)
            XCTAssertEqual(reply.errorCode, "invalid_token")
            XCTAssertEqual(reply.header("WWW-Authenticate"), "Bearer realm=\"scrollstack\", error=\"invalid_token\"")
        }
        XCTAssertEqual(try server.request("GET", "/v1/stacks", headers: [("Authorization", "Basic " + Self.writeToken)]).status, 401)
        XCTAssertEqual(try server.request("GET", "//v1//stacks").status, 401, "extra slashes are no way around")
        XCTAssertEqual(try server.request("GET", "/%761/stacks").status, 401, "nor percent-encoding")
        XCTAssertEqual(try server.request("GET", "/v1/no-such-route").status, 401, "routes are not revealed")

        let readOnWrite = try server.request("POST", "/v1/stacks", json: body, headers: bearer(Self.readToken))
        XCTAssertEqual(readOnWrite.status, 403)
        XCTAssertEqual(readOnWrite.errorCode, "insufficient_scope")
        XCTAssertTrue(readOnWrite.header("WWW-Authenticate")?.contains("insufficient_scope") == true)
        XCTAssertEqual(try server.request("GET", "/v1/stacks", headers: bearer(Self.readToken)).json, .array([]), "nothing was created")

        XCTAssertEqual(try server.request("POST", "/v1/stacks", json: body, headers: bearer(Self.writeToken)).status, 201)
        XCTAssertEqual(try server.request("GET", "/v1/stacks/s/layout", headers: bearer(Self.readToken)).status, 200)
        XCTAssertEqual(try server.request("POST", "/v1/layout", json: object(("rows", [row("a")])), headers: bearer(Self.readToken)).status, 200,
                       "the stateless layout stores nothing: a read token may use it")
        for picture in ["/v1/layout.svg", "/v1/layout.png"] {
            XCTAssertEqual(try server.request("POST", picture, json: object(("rows", [row("a")])), headers: bearer(Self.readToken)).status, 200,
                           "nor do its pictures: \(picture)")
        }
        XCTAssertEqual(try server.request("DELETE", "/v1/stacks/s", headers: bearer(Self.readToken)).status, 403)
        XCTAssertEqual(try server.request("DELETE", "/v1/stacks/s", headers: [("Authorization", "bearer " + Self.writeToken)]).status, 204,
                       "the scheme is case-insensitive")

        XCTAssertEqual(try server.request("GET", "/healthz").status, 200, "/healthz stays open")
        XCTAssertEqual(try preflight(server, "/v1/stacks", method: "POST").status, 204, "preflights carry no credentials")
    }

    func testTokenLinesAreCheckedWithoutQuotingTokens() throws {
        XCTAssertThrowsError(try AccessTokens(lines: "secret-secret-secret admin", source: "f")) { error in
            XCTAssertFalse("\(error)".contains("secret"), "\(error)")
            XCTAssertTrue("\(error)".contains("f, entry 1"), "\(error)")
        }
        XCTAssertThrowsError(try AccessTokens(lines: "short write", source: "f"))
        let parsed = try AccessTokens(lines: "\(Self.writeToken) write,\(Self.readToken) read", source: "env", comments: false)
        XCTAssertEqual(parsed.count, 2)
    }

    /// The daemon with a token file and tokens in the environment, on disk: tokens work, never
    /// reach the log, and a restart replays the journal whatever the tokens.
    func testDaemonTokensFromFileAndEnvironmentAreNotLoggedAndReplayIsNotAuthorized() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("tokens-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = directory.appendingPathComponent("tokens").path
        try "\(Self.writeToken) write\n".write(toFile: file, atomically: true, encoding: .utf8)
        let envToken = "e-0123456789abcdef0123"
        let arguments = ["--data-dir", directory.path, "--token-file", file]
        let daemon = try Daemon.start(arguments, environment: ["SCROLLSTACK_TOKENS": "\(envToken) read"])
        let json = [("Content-Type", "application/json")]
        let created = try httpRequest(port: daemon.port, method: "POST", path: "/v1/stacks",
                                      headers: json + [("Authorization", "Bearer \(Self.writeToken)")], body: Array(#"{"id":"s"}"#.utf8))
        XCTAssertEqual(created.status, 201)
        let inserted = try httpRequest(port: daemon.port, method: "POST", path: "/v1/stacks/s/rows",
                                       headers: json + [("Authorization", "Bearer \(Self.writeToken)")],
                                       body: Array(#"{"rows":[{"id":"a","view":{"type":"V"},"size":{"fixed":10}}]}"#.utf8))
        XCTAssertEqual(inserted.status, 200)
        XCTAssertEqual(try httpRequest(port: daemon.port, method: "GET", path: "/v1/stacks/s", headers: [("Authorization", "Bearer \(envToken)")]).status, 200)
        XCTAssertEqual(try httpRequest(port: daemon.port, method: "GET", path: "/v1/stacks/s", headers: [("Authorization", "Bearer \(envToken)x")]).status, 401)
        daemon.process.terminate()
        daemon.process.waitForExit()
        let log = daemon.log()
        XCTAssertTrue(log.contains("access: 2 tokens"), log)
        XCTAssertTrue(log.contains("GET /v1/stacks/s 401"), log)
        XCTAssertFalse(log.contains(Self.writeToken) || log.contains(envToken) || log.contains("0123456789abcdef"), log)

        let again = try Daemon.start(arguments)
        defer { again.process.terminate(); again.process.waitForExit() }
        let stack = Reply(try httpRequest(port: again.port, method: "GET", path: "/v1/stacks/s", headers: [("Authorization", "Bearer \(Self.writeToken)")]))
        XCTAssertEqual(stack.status, 200)
        XCTAssertEqual(stack.header("ETag"), "\"2\"", "the journal was replayed without tokens")
        XCTAssertEqual(stack["rows[0].id"], "a")
    }

    func testWithoutTokensTheDaemonSaysItListensOnLoopbackOnly() throws {
        let daemon = try Daemon.start(["--in-memory"])
        daemon.process.terminate()
        daemon.process.waitForExit()
        let log = daemon.log()
        XCTAssertTrue(log.contains("listening on http://127.0.0.1:"), log)
        XCTAssertTrue(log.contains("(access: no tokens, so loopback only"), log)
        let explicit = try Daemon.start(["--in-memory", "--host", "127.0.0.1"])
        explicit.process.terminate()
        explicit.process.waitForExit()
        let warned = explicit.log()
        XCTAssertTrue(warned.contains("access: no tokens; anyone who can reach"), warned)
    }
}
