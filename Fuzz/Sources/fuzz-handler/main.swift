// The request handler as a whole. An input is up to 8 requests separated by a line `---`; each
// is a request line (`METHOD TARGET`), header lines (`name: value`), an empty line and the
// body, and goes through `StackService.handle` as the server would pass it (target split at
// `?`, path and query percent-decoded, `%00` refused before the service as the server does).
// Every input starts from one stack `s` of three rows and no pile. After each request: no 5xx,
// an error answer is the JSON error shape with its own status, a failed request changed no
// stack, and every stack keeps the model's invariants.
//
// Speed: everything runs in process, no socket; the starting
// state is rebuilt only after an input that changed it (most inputs fail, changing nothing);
// inputs and request heads are split by plain byte scans; each request encodes every stack's
// model once (the state after one request is the state before the next).
import FuzzSupport
import JSONCodec
import MicroHTTP
import ScrollStackCore
@testable import ScrollStackService

enum Harness {
    /// One service for the whole run; an input that changed anything is followed by a reset.
    static let service = StackService()
    /// Every stack's model in the starting state (set by `reset`), the "before" of each
    /// input's first request.
    nonisolated(unsafe) static var pristineModels: [String: [UInt8]] = [:]
    /// Whether the last input left models other than `pristineModels` (also a change that
    /// made no revision), so that the next one starts from a reset.
    nonisolated(unsafe) static var changed = true
}
let seedStack = #"{"id":"s","viewport":{"width":320,"height":480},"rows":[{"id":"a","view":{"type":"V"},"size":{"fixed":100}},{"id":"b","view":{"type":"V","props":{"x":[1,2]}},"content":{"aspectRatio":1.5}},{"id":"c","controller":{"type":"C"},"size":{"fixed":50}}]}"#

/// `%HH` decoded (never `%00`), `+` as a space where `plusIsSpace`, like the server's callback.
func percentDecoded(_ text: Substring, plusIsSpace: Bool) -> String {
    var bytes: [UInt8] = []
    var utf8 = Array(text.utf8)[...]
    while let byte = utf8.popFirst() {
        if byte == UInt8(ascii: "%"), utf8.count >= 2, let value = UInt8(String(decoding: utf8.prefix(2), as: UTF8.self), radix: 16), value != 0 {
            bytes.append(value)
            utf8 = utf8.dropFirst(2)
        } else {
            bytes.append(plusIsSpace && byte == UInt8(ascii: "+") ? UInt8(ascii: " ") : byte)
        }
    }
    return String(decoding: bytes, as: UTF8.self)
}

/// The lines of `head`, split at each `\n` byte.
/// - Complexity: O(head length).
func lines(of head: ArraySlice<UInt8>) -> [String] {
    var lines: [String] = []
    var start = head.startIndex
    for i in head.indices where head[i] == 10 {
        lines.append(String(decoding: head[start..<i], as: UTF8.self))
        start = i + 1
    }
    lines.append(String(decoding: head[start...], as: UTF8.self))
    return lines
}

/// The request one part of the input describes, or nil when the server would not pass it on.
/// The head ends at the first empty line (`\n\n`), found by a byte scan.
func request(from part: ArraySlice<UInt8>) -> HTTPRequest? {
    var headEnd = part.endIndex
    var i = part.startIndex
    while i + 1 < part.endIndex {
        if part[i] == 10 && part[i + 1] == 10 {
            headEnd = i
            break
        }
        i += 1
    }
    let body = Array(part[min(headEnd + 2, part.endIndex)...])
    var lines = lines(of: part[..<headEnd])[...]
    guard let requestLine = lines.popFirst() else { return nil }
    let words = requestLine.split(separator: " ", maxSplits: 1)
    guard words.count == 2, !words[0].isEmpty, !words[1].contains(" ") else { return nil }
    let target = words[1]
    let rawPath = target.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false)[0]
    guard rawPath.hasPrefix("/"), !rawPath.contains("%00") else { return nil }
    var query: [(name: String, value: String)] = []
    if let mark = target.firstIndex(of: "?") {
        for pair in target[target.index(after: mark)...].split(separator: "&") {
            let sides = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            query.append((percentDecoded(sides[0], plusIsSpace: true), sides.count > 1 ? percentDecoded(sides[1], plusIsSpace: true) : ""))
        }
    }
    var headers: [(name: String, value: String)] = []
    for line in lines {
        guard let colon = line.firstIndex(of: ":") else { return nil }
        headers.append((String(line[..<colon]), String(line[line.index(after: colon)...].drop { $0 == " " })))
    }
    return HTTPRequest(method: String(words[0]), path: percentDecoded(rawPath, plusIsSpace: false), rawPath: String(rawPath),
                       query: query, headers: headers, body: body, rawTarget: String(target))
}

/// Every stack's revision and model as `GET` would answer them, by id, each model's
/// invariants checked first (a trap).
func models() -> [String: [UInt8]] {
    var result: [String: [UInt8]] = [:]
    for entry in Harness.service.store.all() {
        result[entry.id] = try? entry.read { stack, revision throws(APIError) in
            stack.checkInvariants()
            return ModelEncoding.stackText(id: entry.id, revision: revision, stack, realPrecision: 17)
        }
    }
    return result
}

/// Checks one answer and what it left behind; returns the models after it (the next
/// request's `before`).
func check(_ request: HTTPRequest, _ response: HTTPResponse, before: [String: [UInt8]]) -> [String: [UInt8]] {
    let what = "\(request.summary) → \(response.status)"
    Fuzzer.require((100..<500).contains(response.status), "\(what): \(String(decoding: response.body.prefix(300), as: UTF8.self))")
    let after = models()
    guard response.status >= 400 else { return after }
    Fuzzer.require(after == before, "\(what): a failed request changed a stack")
    guard let error = (try? JSON.parse(response.body))?["error"] else { fatalError("\(what): the answer is not a JSON error") }
    Fuzzer.require(error["status"]?.int64Value == Int64(response.status), "\(what): the error's status differs from the answer's")
    Fuzzer.require(error["code"]?.stringValue?.isEmpty == false, "\(what): the error has no code")
    Fuzzer.require(error["message"]?.stringValue != nil, "\(what): the error has no message")
    return after
}

/// Whether the service holds exactly the starting state: the seed stack at revision 1, no
/// other stack, no pile.
func isPristine() -> Bool {
    let stacks = Harness.service.store.all()
    guard stacks.count == 1, stacks[0].id == "s", Harness.service.piles.registry.all().isEmpty else { return false }
    return (try? stacks[0].read { _, revision throws(APIError) in revision }) == 1
}

/// Deletes every stack and pile and creates the seed stack again.
func reset() {
    for entry in Harness.service.store.all() {
        _ = Harness.service.handle(HTTPRequest(method: "DELETE", path: "/v1/stacks/\(entry.id)"))
    }
    for entry in Harness.service.piles.registry.all() {
        _ = Harness.service.handle(HTTPRequest(method: "DELETE", path: "/v1/piles/\(entry.id)"))
    }
    let created = Harness.service.handle(HTTPRequest(method: "POST", path: "/v1/stacks", headers: [("content-type", "application/json")],
                                             body: Array(seedStack.utf8)))
    Fuzzer.require(created.status == 201, "the seed stack was refused: \(created.status)")
    Harness.pristineModels = models()
}

/// The input's requests: the parts between lines `---`, at most 8.
/// - Complexity: O(input length).
func parts(of input: [UInt8]) -> [ArraySlice<UInt8>] {
    let separator: [UInt8] = Array("\n---\n".utf8)
    var parts: [ArraySlice<UInt8>] = []
    var start = 0
    var i = 0
    while i + separator.count <= input.count && parts.count < 8 {
        if input[i] == separator[0] && input[i..<(i + separator.count)].elementsEqual(separator) {
            if i > start { parts.append(input[start..<i]) }
            i += separator.count
            start = i
        } else {
            i += 1
        }
    }
    if parts.count < 8 && start < input.count { parts.append(input[start...]) }
    return parts
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzHandler(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    if Harness.changed || !isPristine() { reset() }
    let requests = parts(of: Fuzzer.bytes(data, size)).compactMap(request(from:))
    var models = Harness.pristineModels
    for request in requests {
        models = check(request, Harness.service.handle(request), before: models)
    }
    Harness.changed = models != Harness.pristineModels
    return 0
}

Fuzzer.run(fuzzHandler)
