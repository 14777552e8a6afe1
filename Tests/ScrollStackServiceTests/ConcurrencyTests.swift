import Foundation
import JSONCodec
@testable import ScrollStackCore
import Synchronization
import TestHTTPClient
import XCTest

/// 8 clients × 500 mutations at once; afterwards every stack must equal its acknowledged
/// operations applied in revision order.
final class ConcurrencyTests: XCTestCase {
    /// A mutation a client sent, replayable on a local model.
    enum Operation: Sendable {
        case insert(id: String, at: InsertLocation)
        case move(from: Int, to: Int)
        case hide(index: Int, hidden: Bool)
        case remove(index: Int)
        case scroll(y: Double)

        func request(stack: String) -> (method: String, path: String, body: JSON?) {
            switch self {
            case .insert(let id, let at):
                let location: JSON
                switch at {
                case .top: location = "top"
                case .index(let i): location = object(("index", .integer(Int64(i))))
                default: location = "bottom"
                }
                return ("POST", "/v1/stacks/\(stack)/rows", object(("rows", [row(id, 30)]), ("at", location)))
            case .move(let from, let to):
                return ("POST", "/v1/stacks/\(stack)/rows/at/\(from)/move", object(("to", .integer(Int64(to)))))
            case .hide(let index, let hidden):
                return ("PATCH", "/v1/stacks/\(stack)/rows/at/\(index)", object(("hidden", .bool(hidden))))
            case .remove(let index):
                return ("DELETE", "/v1/stacks/\(stack)/rows/at/\(index)", nil)
            case .scroll(let y):
                return ("POST", "/v1/stacks/\(stack)/scroll", object(("offset", object(("x", 0), ("y", .number(y))))))
            }
        }

        func apply(to stack: inout ScrollStack) throws {
            switch self {
            case .insert(let id, let at):
                try stack.insert([Row(id: id, content: .controller(ControllerDescriptor(type: "VC")), size: .fixed(30))], at: at)
            case .move(let from, let to): try stack.move(.index(from), to: to)
            case .hide(let index, let hidden): try stack.setHidden([.index(index)], hidden)
            case .remove(let index): try stack.remove([.index(index)])
            case .scroll(let y): try stack.scroll(to: .offset(Point(x: 0, y: y)))
            }
        }
    }

    struct Acknowledged: Sendable {
        let stack: String
        let revision: Int
        let operation: Operation
    }

    static func randomOperation(client: Int, step: Int, rng: inout SplitMix64) -> Operation {
        switch rng.next() % 10 {
        case 0, 1, 2, 3:
            let at: InsertLocation = [.top, .bottom, .index(Int(rng.next() % 6))][Int(rng.next() % 3)]
            return .insert(id: "c\(client)-\(step)", at: at)
        case 4, 5: return .move(from: Int(rng.next() % 4), to: Int(rng.next() % 4))
        case 6: return .hide(index: Int(rng.next() % 4), hidden: rng.next() % 2 == 0)
        case 7, 8: return .remove(index: Int(rng.next() % 4))
        default: return .scroll(y: Double(rng.next() % 400))
        }
    }

    func run(sharedStack: Bool) throws {
        let server = try ServerHarness()
        defer { server.stop() }
        let clients = 8
        let perClient = 500
        let stacks = sharedStack ? ["shared"] : (0..<clients).map { "own\($0)" }
        for id in stacks {
            XCTAssertEqual(try server.request("POST", "/v1/stacks", json: object(("id", .string(id)), ("viewport", object(("width", 100), ("height", 200))))).status, 201)
        }
        let acknowledged = Mutex<[Acknowledged]>([])
        let failures = Mutex<[String]>([])
        let port = server.port
        let group = DispatchGroup()
        for client in 0..<clients {
            group.enter()
            let thread = Thread {
                defer { group.leave() }
                var rng = SplitMix64(seed: UInt64(client + 1) * 7919)
                let stack = sharedStack ? "shared" : "own\(client)"
                do {
                    let connection = try TestHTTPConnection(port: port)
                    defer { connection.close() }
                    for step in 0..<perClient {
                        let operation = Self.randomOperation(client: client, step: step, rng: &rng)
                        let (method, path, body) = operation.request(stack: stack)
                        let response = try connection.send(method: method, path: path,
                                                           headers: body == nil ? [] : [("Content-Type", "application/json")],
                                                           body: body?.serialized())
                        let reply = Reply(response)
                        if reply.status == 200, let revision = reply["revision"]?.int64Value {
                            acknowledged.withLock { $0.append(Acknowledged(stack: stack, revision: Int(revision), operation: operation)) }
                        } else if reply.status != 422 && reply.status != 404 {
                            failures.withLock { $0.append("\(method) \(path): \(reply.status) \(reply.text)") }
                        }
                    }
                } catch {
                    failures.withLock { $0.append("client \(client): \(error)") }
                }
            }
            thread.start()
        }
        // A hang guard, not a speed check: a debug build under load 20 needs over 120 s here.
        XCTAssertEqual(group.wait(timeout: .now() + 300), .success, "clients did not finish")
        XCTAssertEqual(failures.withLock { $0 }, [])

        let all = acknowledged.withLock { $0 }
        XCTAssertGreaterThan(all.count, clients * perClient / 2, "too few operations were acknowledged to mean anything")
        for id in stacks {
            let operations = all.filter { $0.stack == id }.sorted { $0.revision < $1.revision }
            // Revisions are unique and without gaps: 2, 3, … (1 is the creation).
            XCTAssertEqual(operations.map(\.revision), Array(2..<(2 + operations.count)), "stack \(id)")
            var model = try ScrollStack(settings: StackSettings(viewport: Size(width: 100, height: 200)))
            for acknowledged in operations { try acknowledged.operation.apply(to: &model) }
            let served = try server.request("GET", "/v1/stacks/\(id)")
            XCTAssertEqual(served["revision"]?.int64Value, Int64(1 + operations.count))
            let servedRows = (served["rows"]?.arrayValue ?? []).map { "\($0["id"]?.stringValue ?? "?")\($0["hidden"] == true ? "(h)" : "")" }
            XCTAssertEqual(servedRows, model.rows.map { "\($0.id)\($0.hidden ? "(h)" : "")" }, "stack \(id)")
            XCTAssertEqual(served["offset.y"]?.doubleValue, model.settings.offset.y)
            let layout = try server.request("GET", "/v1/stacks/\(id)/layout")
            XCTAssertEqual(layout["visibleRows"]?.arrayValue?.compactMap(\.stringValue), model.visibleRows)
        }
    }

    func testEightClientsOnSeparateStacks() throws { try run(sharedStack: false) }

    func testEightClientsOnOneSharedStack() throws { try run(sharedStack: true) }
}
