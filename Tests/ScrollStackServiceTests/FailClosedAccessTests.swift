import Foundation
import JSONCodec
import Postgres
@testable import ScrollStackService
import TestHTTPClient
import XCTest

/// Access that fails closed, over real HTTP and real daemon processes: token sources that
/// yield no token stop the start, a local server refuses other web sites and other host names,
/// and secrets never reach the log.
final class FailClosedAccessTests: XCTestCase {
    static let writeToken = "w-0123456789abcdef0123"

    /// A scratch folder, removed at the end of the test.
    func scratch() throws -> URL {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("fail-closed-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        addTeardownBlock { try? FileManager.default.removeItem(at: directory) }
        return directory
    }

    /// Runs the daemon expecting it to refuse to start: its exit status is not 0 and its log
    /// holds `reason`; it never listened.
    func assertRefusesToStart(_ arguments: [String], environment: [String: String] = [:], naming reason: String,
                              file: StaticString = #filePath, line: UInt = #line) throws {
        let daemon = try DaemonProcess(["--in-memory", "--port", "0"] + arguments, environment: environment)
        let status = try daemon.finish(seconds: 30)
        XCTAssertNotEqual(status, 0, "\(arguments) \(environment): \(daemon.text)", file: file, line: line)
        XCTAssertTrue(daemon.text.contains(reason), "\(arguments) \(environment): \(daemon.text)", file: file, line: line)
        XCTAssertFalse(daemon.text.contains("listening on"), daemon.text, file: file, line: line)
        XCTAssertFalse(daemon.text.contains("0123456789abcdef"), "never a token in the log: \(daemon.text)", file: file, line: line)
    }

    func testEveryTokenSourceThatYieldsNoTokenStopsTheStart() throws {
        let directory = try scratch()
        let commentsOnly = directory.appendingPathComponent("comments").path
        try "# tokens for the design team\n\n# (none yet)\n".write(toFile: commentsOnly, atomically: true, encoding: .utf8)
        let hashed = directory.appendingPathComponent("hashed").path
        try "#\(Self.writeToken) write\n".write(toFile: hashed, atomically: true, encoding: .utf8)
        let secrets = directory.appendingPathComponent("secrets")
        try FileManager.default.createDirectory(at: secrets, withIntermediateDirectories: true)
        try "\(Self.writeToken) write\n".write(to: secrets.appendingPathComponent("tokens"), atomically: true, encoding: .utf8)

        try assertRefusesToStart(["--token-file", commentsOnly], naming: "\(commentsOnly) holds no token")
        try assertRefusesToStart(["--token-file", hashed], naming: "starts with '#'")
        try assertRefusesToStart(["--token-file", secrets.path], naming: "it is a directory")
        try assertRefusesToStart(["--token-file", "/dev/null"], naming: "not a regular file")
        try assertRefusesToStart(["--token-file", directory.appendingPathComponent("missing").path], naming: "No such file")
        try assertRefusesToStart(["--token-file", ""], naming: "--token-file (SCROLLSTACK_TOKEN_FILE) is empty")
        try assertRefusesToStart(["--tokens", ""], naming: "--tokens (SCROLLSTACK_TOKENS) holds no token")
        try assertRefusesToStart([], environment: ["SCROLLSTACK_TOKENS": " , "], naming: "--tokens (SCROLLSTACK_TOKENS) holds no token")
        try assertRefusesToStart([], environment: ["SCROLLSTACK_TOKENS": ""], naming: "--tokens (SCROLLSTACK_TOKENS) holds no token")
        try assertRefusesToStart([], environment: ["SCROLLSTACK_TOKEN_FILE": ""], naming: "--token-file (SCROLLSTACK_TOKEN_FILE) is empty")
        try assertRefusesToStart([], environment: ["SCROLLSTACK_TOKENS": "#\(Self.writeToken) write"], naming: "a token never starts with '#'")
        try assertRefusesToStart(["--tokens", "\(Self.writeToken) write", "--token-file", commentsOnly], naming: "holds no token")
    }

    func testAReadableTokenFileServesWithAWarningWhenOthersMayReadIt() throws {
        let directory = try scratch()
        let file = directory.appendingPathComponent("tokens").path
        try "# the team\n\(Self.writeToken) write\n".write(toFile: file, atomically: true, encoding: .utf8)
        chmod(file, 0o644)
        let daemon = try Daemon.start(["--in-memory", "--token-file", file])
        XCTAssertEqual(try httpRequest(port: daemon.port, method: "POST", path: "/v1/stacks",
                                       headers: [("Content-Type", "application/json")], body: Array("{}".utf8)).status, 401)
        // Optional whitespace after the token is not part of it.
        XCTAssertEqual(try httpRequest(port: daemon.port, method: "POST", path: "/v1/stacks",
                                       headers: [("Content-Type", "application/json"), ("Authorization", "Bearer \(Self.writeToken) \t")],
                                       body: Array("{}".utf8)).status, 201)
        try daemon.stop()
        let log = daemon.log()
        XCTAssertTrue(log.contains("the token file \(file) is readable by every user (mode 644): chmod 600 it"), log)

        chmod(file, 0o600)
        let quiet = try Daemon.start(["--in-memory", "--token-file", file])
        try quiet.stop()
        XCTAssertFalse(quiet.log().contains("readable by"), quiet.log())
    }

    /// The default of a server without tokens: a web site's page can neither preflight nor
    /// send a change, nor reach it under its own name; sandboxed plug-in frames and loopback
    /// pages can.
    func testWithoutTokensOtherSitesCannotChangeStacksNorRebindTheName() throws {
        let daemon = try Daemon.start(["--in-memory"])
        defer { try? daemon.stop() }
        let port = daemon.port
        let json = [("Content-Type", "application/json")]
        XCTAssertEqual(try httpRequest(port: port, method: "POST", path: "/v1/stacks", headers: json, body: Array(#"{"id":"mine"}"#.utf8)).status, 201)

        func preflight(_ origin: String, method: String = "DELETE", extra: [(String, String)] = []) throws -> Reply {
            Reply(try httpRequest(port: port, method: "OPTIONS", path: "/v1/stacks/mine",
                                  headers: [("Origin", origin), ("Access-Control-Request-Method", method)] + extra))
        }
        let evil = try preflight("https://evil.example")
        XCTAssertEqual(evil.status, 403)
        XCTAssertEqual(evil.errorCode, "origin_not_allowed")
        XCTAssertEqual(evil.headers.filter { $0.0.lowercased() == "vary" && $0.1 == "Origin" }.count, 1, "one Vary: Origin")
        // A DELETE sent anyway (a browser sends some requests without a preflight) is refused too.
        let sent = Reply(try httpRequest(port: port, method: "DELETE", path: "/v1/stacks/mine", headers: [("Origin", "https://evil.example")]))
        XCTAssertEqual(sent.status, 403)
        XCTAssertEqual(sent.errorField, "Origin")
        let simple = Reply(try httpRequest(port: port, method: "POST", path: "/v1/stacks/mine/rows",
                                           headers: [("Origin", "https://evil.example"), ("Content-Type", "text/plain")],
                                           body: Array(#"{"rows":[{"id":"x","view":{"type":"V"}}]}"#.utf8)))
        XCTAssertEqual(simple.status, 403, "a text/plain POST needs no preflight: the origin is checked on the request itself")
        // Reading is not refused, but the page cannot read the answer.
        let read = Reply(try httpRequest(port: port, method: "GET", path: "/v1/stacks/mine", headers: [("Origin", "https://evil.example")]))
        XCTAssertEqual(read.status, 200)
        XCTAssertNil(read.header("Access-Control-Allow-Origin"))

        for origin in ["null", "http://localhost:5173", "http://127.0.0.1:3000", "https://app.localhost", "http://[::1]:8000"] {
            let admitted = try preflight(origin, extra: [("Access-Control-Request-Private-Network", "true")])
            XCTAssertEqual(admitted.status, 204, origin)
            XCTAssertEqual(admitted.header("Access-Control-Allow-Origin"), origin)
            XCTAssertEqual(admitted.header("Access-Control-Allow-Private-Network"), "true", origin)
            XCTAssertEqual(admitted.header("Access-Control-Allow-Credentials"), origin == "null" ? nil : "true", "never credentials with null")
        }
        XCTAssertNil(try preflight("null").header("Access-Control-Allow-Private-Network"), "only when asked")
        XCTAssertEqual(Reply(try httpRequest(port: port, method: "GET", path: "/v1/stacks/mine", headers: [("Origin", "null")]))
            .header("Access-Control-Allow-Origin"), "null")

        // DNS rebinding: a name pointed at 127.0.0.1 arrives as the request's Host.
        let rebound = Reply(try httpRequest(port: port, method: "DELETE", path: "/v1/stacks/mine", headers: [("Host", "evil.example:\(port)")]))
        XCTAssertEqual(rebound.status, 421)
        XCTAssertEqual(rebound.errorCode, "misdirected_request")
        XCTAssertEqual(rebound.errorField, "Host")
        XCTAssertEqual(Reply(try httpRequest(port: port, method: "GET", path: "/healthz", headers: [("Host", "evil.example")])).status, 421)
        for host in ["localhost:\(port)", "LOCALHOST.", "plugin.localhost", "127.0.0.1", "[::1]:\(port)", "10.1.2.3:80"] {
            XCTAssertEqual(try httpRequest(port: port, method: "GET", path: "/v1/stacks/mine", headers: [("Host", host)]).status, 200, host)
        }
        XCTAssertEqual(try httpRequest(port: port, method: "GET", path: "/v1/stacks/mine").status, 200, "the stack is still there")
    }

    func testListedNamesAndOriginsAndTokensChangeTheDefaults() throws {
        let named = try Daemon.start(["--in-memory", "--allowed-host", "studio.internal", "--cors-origin", "https://figma.example"])
        XCTAssertEqual(try httpRequest(port: named.port, method: "GET", path: "/healthz", headers: [("Host", "studio.internal:8080")]).status, 200)
        XCTAssertEqual(try httpRequest(port: named.port, method: "GET", path: "/healthz", headers: [("Host", "other.internal")]).status, 421)
        let local = Reply(try httpRequest(port: named.port, method: "POST", path: "/v1/stacks",
                                          headers: [("Origin", "http://localhost:5173"), ("Content-Type", "application/json")], body: Array("{}".utf8)))
        XCTAssertEqual(local.status, 403, "listing origins replaces the default")
        let figma = Reply(try httpRequest(port: named.port, method: "POST", path: "/v1/stacks",
                                          headers: [("Origin", "https://figma.example"), ("Content-Type", "application/json")], body: Array("{}".utf8)))
        XCTAssertEqual(figma.status, 201)
        let own = Reply(try httpRequest(port: named.port, method: "POST", path: "/v1/stacks",
                                        headers: [("Origin", "http://127.0.0.1:\(named.port)"), ("Host", "127.0.0.1:\(named.port)"),
                                                  ("Content-Type", "application/json")], body: Array("{}".utf8)))
        XCTAssertEqual(own.status, 201, "the server's own origin is never refused")
        try named.stop()

        // With tokens, any origin and any name (a token is never ambient in a browser).
        let guarded = try Daemon.start(["--in-memory", "--tokens", "\(Self.writeToken) write"])
        defer { try? guarded.stop() }
        let pre = Reply(try httpRequest(port: guarded.port, method: "OPTIONS", path: "/v1/stacks",
                                        headers: [("Origin", "https://plugin.example"), ("Access-Control-Request-Method", "POST"),
                                                  ("Host", "scrollstack.example")]))
        XCTAssertEqual(pre.status, 204)
        XCTAssertEqual(pre.header("Access-Control-Allow-Origin"), "*")
        XCTAssertEqual(try httpRequest(port: guarded.port, method: "POST", path: "/v1/stacks",
                                       headers: [("Origin", "https://plugin.example"), ("Content-Type", "application/json"),
                                                 ("Authorization", "Bearer \(Self.writeToken)")], body: Array("{}".utf8)).status, 201)

        try assertRefusesToStart(["--allowed-host", "evil.example:80"], naming: "is not a host name")
        try assertRefusesToStart(["--cors-origin", "https://a.example/path"], naming: "is not an origin")
    }

    /// A client that asks `Expect: 100-continue` is refused on its head: it never gets
    /// `100 Continue`, and the server reads none of the body it announced.
    func testARefusedRequestsBodyIsNeverRead() throws {
        let server = try ServerHarness(tokens: try AccessTokens(lines: "\(Self.writeToken) write", source: "test"))
        defer { server.stop() }
        for (headers, status) in [("", 401), ("Authorization: Bearer \(Self.writeToken)x\r\n", 401), ("Origin: null\r\n", 401)] {
            let connection = try TestHTTPConnection(port: server.port)
            try connection.sendRaw(Array(("POST /v1/stacks HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
                                          + "Content-Length: 900000\r\nExpect: 100-continue\r\n\(headers)\r\n").utf8))
            let (first, fields) = try connection.readHead()
            XCTAssertEqual(first, status, "the first answer is the refusal, never 100 Continue: \(headers)")
            XCTAssertEqual(fields.first { $0.0 == "connection" }?.1, "close", "the body is not read, so the connection cannot be kept")
            connection.close()
        }
        let hostless = try ServerHarness(hosts: try HostPolicy(names: []))
        defer { hostless.stop() }
        let connection = try TestHTTPConnection(port: hostless.port)
        try connection.sendRaw(Array(("POST /v1/stacks HTTP/1.1\r\nHost: evil.example\r\nContent-Type: application/json\r\n"
                                      + "Content-Length: 900000\r\nExpect: 100-continue\r\n\r\n").utf8))
        XCTAssertEqual(try connection.readHead().status, 421)
    }

    func testPagesAndDrawingsCarryNosniffAndAContentSecurityPolicy() throws {
        let server = try ServerHarness(cors: CORSPolicy.defaultPolicy(withTokens: false))
        defer { server.stop() }
        try server.request("POST", "/v1/stacks", json: object(("id", "s"), ("rows", [row("a")])))
        let page = try server.request("GET", "/view/s")
        XCTAssertEqual(page.header("X-Content-Type-Options"), "nosniff")
        let policy = try XCTUnwrap(page.header("Content-Security-Policy"))
        XCTAssertTrue(policy.hasPrefix("default-src 'none'; script-src 'sha256-\(ViewerPage.scriptDigest)';"), policy)
        XCTAssertTrue(policy.contains("frame-ancestors 'self' http://localhost:* "), policy)
        XCTAssertEqual(page.header("Referrer-Policy"), "no-referrer")
        let drawing = try server.request("GET", "/v1/stacks/s/layout.svg")
        XCTAssertEqual(drawing.status, 200)
        XCTAssertEqual(drawing.header("X-Content-Type-Options"), "nosniff")
        XCTAssertTrue(drawing.header("Content-Security-Policy")?.hasPrefix("default-src 'none'; style-src 'unsafe-inline'") == true)
        XCTAssertNil(try server.request("GET", "/v1/stacks/s").header("Content-Security-Policy"), "JSON answers are not pages")
    }

    /// The digest the viewer's policy names, against FIPS 180-4's examples and the script's
    /// own bytes hashed by `sha256sum`.
    func testTheViewerScriptDigestIsTheScriptsSHA256() throws {
        XCTAssertEqual(SHA256.base64(SHA256.digest(Array("abc".utf8))), "ungWv48Bz+pBQUDeXa4iI7ADYaOWF3qctBD/YfIAFa0=")
        XCTAssertEqual(SHA256.base64(SHA256.digest([])), "47DEQpj8HBSa+/TImW+5JCeuQeRkm5NMpJWZG3hSuFU=")
        let long = Array("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq".utf8)
        XCTAssertEqual(SHA256.base64(SHA256.digest(long)), "JI1qYdIGOLjlwCaTDD5gOaM85Flk/yFn9uzt1BnbBsE=")
        let html = ViewerPage.html
        let script = try XCTUnwrap(html.range(of: "<script>")?.upperBound).map { start in
            String(html[start..<html.range(of: "</script>", range: start..<html.endIndex)!.lowerBound])
        }!
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/sha256sum")
        let input = Pipe(), output = Pipe()
        process.standardInput = input
        process.standardOutput = output
        try process.run()
        input.fileHandleForWriting.write(Data(script.utf8))
        try input.fileHandleForWriting.close()
        let hex = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self).prefix(64)
        process.waitUntilExit()
        let bytes = stride(from: 0, to: 64, by: 2).map { UInt8(hex.dropFirst($0).prefix(2), radix: 16)! }
        XCTAssertEqual(SHA256.base64(bytes), ViewerPage.scriptDigest)
    }

    func testPasswordsOfEveryStoreFormAreMasked() throws {
        let forms = [
            "host=127.0.0.1 port=1 user=u password=hunter2-secret connect_timeout=1",
            "host=127.0.0.1 port=1 password = 'it\\'s hunter2-secret' connect_timeout=1",
            "postgres://u:hunter2-secret@127.0.0.1:1/db?connect_timeout=1",
            "postgresql://u@127.0.0.1:1/db?connect_timeout=1&password=hunter2-secret",
            "postgres://u:hunter2%2Dsecret@127.0.0.1:1/db?connect_timeout=1",
        ]
        for form in forms {
            XCTAssertFalse(ConnectionString.redacted(form).contains("hunter2"), ConnectionString.redacted(form))
            XCTAssertTrue(ConnectionString.redacted(form).contains(ConnectionString.mask), form)
            let daemon = try DaemonProcess(["--port", "0", "--store", form])
            XCTAssertNotEqual(try daemon.finish(seconds: 30), 0)
            XCTAssertTrue(daemon.text.contains("cannot open the database in PostgreSQL at"), daemon.text)
            XCTAssertFalse(daemon.text.contains("hunter2"), daemon.text)
            let directory = try scratch()
            let migrate = try DaemonProcess(["migrate", "--data-dir", directory.path, "--store", form])
            XCTAssertNotEqual(try migrate.finish(seconds: 30), 0)
            XCTAssertFalse(migrate.text.contains("hunter2"), migrate.text)
        }
        XCTAssertEqual(ConnectionString.redacted("host=db dbname=x"), "host=db dbname=x")
        XCTAssertEqual(ConnectionString.redacted("postgres://u:p@h/d?password=q&sslmode=require"), "postgres://u:***@h/d?password=***&sslmode=require")
    }
}
