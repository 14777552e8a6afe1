import Foundation
import JSONCodec
import MicroHTTP
import ScrollStackService
import TestHTTPClient
import XCTest

/// The real server on an ephemeral loopback port, with the service behind it.
final class ServerHarness {
    let server: HTTPServer
    let service: StackService

    init(service: StackService = StackService(), maxBodyBytes: Int = 1 << 20, connectionTimeout: Int = 30, threads: Int = 2, connectionLimit: Int = 64,
         cors: CORSPolicy? = nil, tokens: AccessTokens = AccessTokens(), hosts: HostPolicy = .any, metrics: Bool = false, streamHeartbeat: Double = 15) throws {
        self.service = service
        let edge = ServiceEdge(service: service, cors: try cors ?? CORSPolicy(), tokens: tokens, hosts: hosts,
                               metrics: metrics ? ServiceMetrics(service: service) : nil, maxBodyBytes: maxBodyBytes)
        let configuration = HTTPServer.Configuration(
            host: "127.0.0.1", port: 0, threads: threads, maxBodyBytes: maxBodyBytes,
            connectionTimeout: connectionTimeout, connectionLimit: connectionLimit, streamHeartbeat: streamHeartbeat
        )
        server = HTTPServer(
            configuration: configuration,
            handler: { edge.handle($0) },
            errorResponder: { edge.respond(to: $0, failure: $1) }
        )
        server.headGate = { edge.admission($0) }
        server.bodyLimit = { edge.bodyLimit(method: $0, path: $1) }
        edge.metrics?.observe(server)
        try server.start()
    }

    var port: Int { server.port }

    func stop() { server.stop() }

    /// One request on a fresh connection; a JSON body gets `Content-Type: application/json`.
    @discardableResult
    func request(_ method: String, _ path: String, json: JSON? = nil, headers: [(String, String)] = []) throws -> Reply {
        var all = headers
        if json != nil { all.append(("Content-Type", "application/json")) }
        let response = try httpRequest(port: port, method: method, path: path, headers: all, body: json?.serialized())
        return Reply(response)
    }

    /// A request with a raw body and explicit headers.
    func raw(_ method: String, _ path: String, body: [UInt8], headers: [(String, String)]) throws -> Reply {
        Reply(try httpRequest(port: port, method: method, path: path, headers: headers, body: body))
    }
}

/// The real `scrollstackd` executable, started on a free port.
struct Daemon {
    let process: Process
    let port: Int
    let standardError: Pipe
    /// What it logged up to the notice naming its port.
    var startupLog = ""

    /// Everything it wrote to standard error, once it has exited.
    func log() -> String {
        startupLog + String(decoding: standardError.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    }

    /// The daemon built next to this test bundle (`swift build --build-tests` builds both).
    static var binary: URL {
        let bundle = URL(fileURLWithPath: CommandLine.arguments.first { $0.hasSuffix(".xctest") } ?? CommandLine.arguments[0])
        return bundle.deletingLastPathComponent().appendingPathComponent("scrollstackd")
    }

    /// Starts it with `arguments` after `--port 0` and waits for the notice naming its port
    /// (so the log level must show notices).
    static func start(_ arguments: [String], environment: [String: String] = [:]) throws -> Daemon {
        let process = Process()
        process.executableURL = binary
        if !environment.isEmpty { process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 } }
        process.arguments = ["--port", "0"] + arguments
        let errors = Pipe()
        process.standardError = errors
        try process.run()
        // The wait's deadline: a daemon that has not named its port within 60 s is ended,
        // which ends the read below.
        let named = DispatchSemaphore(value: 0)
        DispatchQueue.global().async {
            if named.wait(timeout: .now() + 60) == .timedOut { process.terminate() }
        }
        defer { named.signal() }
        var text = ""
        while !text.contains("listening on"), process.isRunning {
            text += String(decoding: errors.fileHandleForReading.availableData, as: UTF8.self)
        }
        guard let range = text.range(of: #"127\.0\.0\.1:(\d+)"#, options: .regularExpression),
              let port = Int(text[range].split(separator: ":").last ?? "") else {
            process.terminate()
            throw DaemonError(message: "the daemon did not report its port: \(text)")
        }
        return Daemon(process: process, port: port, standardError: errors, startupLog: text)
    }

    /// Sends SIGTERM and waits at most `seconds` for the exit. Returns the exit status.
    @discardableResult
    func stop(within seconds: Double = 30) throws -> Int32 {
        let exited = DispatchSemaphore(value: 0)
        process.terminationHandler = { _ in exited.signal() }
        process.terminate()
        guard process.isRunning == false || exited.wait(timeout: .now() + seconds) == .success else {
            kill(process.processIdentifier, SIGKILL)
            throw DaemonError(message: "the daemon did not stop within \(seconds) s")
        }
        process.waitUntilExit()  // returns at once: it has exited
        return process.terminationStatus
    }
}

struct DaemonError: Error, CustomStringConvertible {
    let message: String
    var description: String { message }
}

/// A response with its body parsed as JSON (when it is JSON).
struct Reply {
    let status: Int
    let headers: [(String, String)]
    let body: [UInt8]
    let json: JSON?

    init(_ response: TestHTTPResponse) {
        status = response.status
        headers = response.headers
        body = response.body
        json = try? JSON.parse(response.body)
    }

    func header(_ name: String) -> String? {
        headers.first { $0.0.lowercased() == name.lowercased() }?.1
    }

    /// A member path like `error.field` or `rows[2].id`.
    subscript(path: String) -> JSON? {
        var current = json
        for part in path.split(separator: ".") {
            var name = Substring(part)
            var indexes: [Int] = []
            while let open = name.lastIndex(of: "["), name.last == "]" {
                indexes.insert(Int(name[name.index(after: open)..<name.index(before: name.endIndex)])!, at: 0)
                name = name[..<open]
            }
            if !name.isEmpty { current = current?[String(name)] }
            for i in indexes {
                guard let array = current?.arrayValue, i < array.count else { return nil }
                current = array[i]
            }
        }
        return current
    }

    var errorField: String? { self["error.field"]?.stringValue }
    var errorCode: String? { self["error.code"]?.stringValue }
    var text: String { String(decoding: body, as: UTF8.self) }
}

/// Shorthand for building request bodies.
func row(_ id: String, _ length: Double = 44, type: String = "VC", hidden: Bool = false) -> JSON {
    .object(JSONObject([
        ("id", .string(id)), ("controller", .object(JSONObject([("type", .string(type))]))),
        ("size", .object(JSONObject([("fixed", .number(length))]))), ("hidden", .bool(hidden)),
    ]))
}

func object(_ pairs: (String, JSON)...) -> JSON { .object(JSONObject(pairs)) }
