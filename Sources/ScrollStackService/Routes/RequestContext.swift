import JSONCodec
import MicroHTTP
import ScrollStackCore

/// A matched request: the HTTP request and the path parameters its route captured.
///
/// A class: handlers pass it to every step and closure, and a struct of this many
/// reference-counted fields cost thousands of instructions per request in copies.
/// Immutable, so sharing it changes nothing.
final class RequestContext: Sendable {
    let request: HTTPRequest
    let parameters: RouteParameters

    init(request: HTTPRequest, parameters: RouteParameters) {
        self.request = request
        self.parameters = parameters
    }

    /// A path parameter the route pattern guarantees.
    func parameter(_ name: String) -> String { parameters[name] ?? "" }

    /// The row a path names: `{row}` is an id, `at/{index}` an index. Unknown rows are 404.
    func rowReference() throws(APIError) -> RowReference {
        if let id = parameters["row"] { return .id(id) }
        let text = parameter("index")
        guard let index = Int(text), index >= 0 else {
            throw APIError(.rowNotFound, message: "\"\(text)\" is not a row index")
        }
        return .index(index)
    }

    /// The JSON body as an object. 415 unless `Content-Type` is `application/json`; 400 with
    /// line and column if it does not parse; 422 if it is not an object.
    func jsonObject() throws(APIError) -> ObjectReader {
        let contentType = request.header("content-type")
        let mediaType = contentType.map(Self.mediaType)
        guard mediaType == "application/json" else { throw .unsupportedMediaType(contentType) }
        let json: JSON
        do {
            json = try JSON.parse(request.body)
        } catch {
            throw .malformedJSON(line: error.line, column: error.column, detail: error.message)
        }
        guard let object = json.objectValue else {
            throw APIError(.wrongType, message: "the body must be a JSON object, got \(json.typeName)")
        }
        return ObjectReader(object: object, path: "")
    }

    /// The media type of a `Content-Type` value, lower-cased: its first non-empty
    /// `;`-separated piece, trimmed of spaces and tabs, as `split(separator: ";").first`
    /// finds it; empty when there is none. An ASCII value is cut on its bytes (each ASCII
    /// byte but CR LF is a character of its own, so the pieces are the same) instead of
    /// splitting characters into an array (9k instructions a request); others are split.
    static func mediaType(_ contentType: String) -> String {
        var text = contentType
        let ascii = text.withUTF8 { bytes -> String? in
            guard bytes.allSatisfy({ $0 < 0x80 }) else { return nil }
            let semicolon = UInt8(ascii: ";")
            var start = 0
            while start < bytes.count && bytes[start] == semicolon { start += 1 }
            var end = start
            while end < bytes.count && bytes[end] != semicolon { end += 1 }
            while start < end && (bytes[start] == UInt8(ascii: " ") || bytes[start] == UInt8(ascii: "\t")) { start += 1 }
            while end > start && (bytes[end - 1] == UInt8(ascii: " ") || bytes[end - 1] == UInt8(ascii: "\t")) { end -= 1 }
            return String(unsafeUninitializedCapacity: end - start) { out in
                for i in start..<end { out[i - start] = ASCIIText.lower(bytes[i]) }
                return end - start
            }
        }
        return ascii ?? contentType.split(separator: ";").first?.trimmingSpaces.lowercased() ?? ""
    }

    /// Whether an entity-tag list header (`If-Match`, `If-None-Match`) names `revision`:
    /// `*` names every revision; weak tags (`W/"3"`) compare like strong ones.
    static func tags(_ header: String, include revision: Int) -> Bool {
        header.split(separator: ",").contains { raw in
            var tag = raw.trimmingSpaces
            if tag == "*" { return true }
            if tag.hasPrefix("W/") { tag = tag.dropFirst(2) }
            return tag == "\"\(revision)\""
        }
    }

    /// Throws 412 when the request has an `If-Match` that does not name `revision` of the
    /// `resource` ("stack" or "pile", for the message).
    func checkIfMatch(_ revision: Int, of resource: String = "stack") throws(APIError) {
        guard let header = request.header("if-match") else { return }
        guard Self.tags(header, include: revision) else {
            throw .preconditionFailed(expected: header, current: revision, resource: resource)
        }
    }

    /// Whether the request asks `Prefer: return=minimal` (RFC 7240): a write then answers
    /// only what identifies its result (`minimalAnswer`), not the model. Preferences are
    /// comma-separated, in any `Prefer` field; names and the token compare case-insensitively.
    var prefersMinimal: Bool {
        request.headers.contains { field in
            field.name == "prefer" && field.value.lowercased().split(separator: ",").contains { preference in
                let pair = preference.split(separator: ";").first?.split(separator: "=", maxSplits: 1) ?? []
                return pair.count == 2 && pair[0].trimmingSpaces == "return" && pair[1].trimmingSpaces.trimmingQuotes == "minimal"
            }
        }
    }

    /// Whether the request has an `If-None-Match` naming `revision` (the client's copy is current).
    func isNotModified(_ revision: Int) -> Bool {
        request.header("if-none-match").map { Self.tags($0, include: revision) } ?? false
    }

    /// Rejects query parameters other than `allowed`.
    func allowQuery(_ allowed: [String]) throws(APIError) {
        for (name, _) in request.query where !allowed.contains(name) {
            throw .badQuery(name, "is not a known query parameter here; expected one of: \(allowed.isEmpty ? "none" : allowed.joined(separator: ", "))")
        }
    }

    func query(_ name: String) -> String? { request.queryValue(name) }

    /// A finite number from the query, or nil when absent.
    func queryNumber(_ name: String) throws(APIError) -> Double? {
        guard let text = query(name) else { return nil }
        guard let value = Double(text), value.isFinite else { throw .badQuery(name, "must be a finite number, got \"\(text)\"") }
        return value
    }

    /// An integer from the query in `range`, or nil when absent.
    func queryInt(_ name: String, in range: ClosedRange<Int>) throws(APIError) -> Int? {
        guard let text = query(name) else { return nil }
        guard let value = Int(text), range.contains(value) else {
            throw .badQuery(name, "must be an integer in \(range.lowerBound)…\(range.upperBound), got \"\(text)\"")
        }
        return value
    }

    func queryBool(_ name: String) throws(APIError) -> Bool? {
        guard let text = query(name) else { return nil }
        switch text {
        case "true", "1", "": return true
        case "false", "0": return false
        default: throw .badQuery(name, "must be true or false, got \"\(text)\"")
        }
    }
}

extension Substring {
    /// Without one pair of surrounding double quotes (a quoted-string's value).
    var trimmingQuotes: Substring {
        count >= 2 && first == "\"" && last == "\"" ? dropFirst().dropLast() : self
    }

    var trimmingSpaces: Substring {
        var s = self
        while s.first == " " || s.first == "\t" { s.removeFirst() }
        while s.last == " " || s.last == "\t" { s.removeLast() }
        return s
    }
}

extension HTTPResponse {
    /// A JSON response; stack answers carry `ETag: "<revision>"`.
    static func json(_ status: Int, _ value: JSON, revision: Int? = nil, headers: [(String, String)] = []) -> HTTPResponse {
        json(status, text: value.serialized(), revision: revision, headers: headers)
    }

    /// A JSON response whose text is already written.
    static func json(_ status: Int, text: [UInt8], revision: Int? = nil, headers: [(String, String)] = []) -> HTTPResponse {
        // Room for the edge's fields too (`Vary`, `Content-Encoding`): appended without a copy.
        var all: [(name: String, value: String)] = []
        all.reserveCapacity(headers.count + 4)
        all.append((name: "Content-Type", value: "application/json"))
        if let revision { all.append((name: "ETag", value: "\"\(revision)\"")) }
        for (name, value) in headers { all.append((name: name, value: value)) }
        return HTTPResponse(status: status, fields: all, body: text)
    }

    /// The answer to a write asked `Prefer: return=minimal`: `{"id", "revision"}` with the
    /// revision's ETag and `Preference-Applied: return=minimal` (plus `headers`).
    static func minimal(_ status: Int, id: String, revision: Int, headers: [(String, String)] = []) -> HTTPResponse {
        json(status, .object(JSONObject([("id", .string(id)), ("revision", .integer(Int64(revision)))])), revision: revision,
             headers: headers + [("Preference-Applied", "return=minimal")])
    }

    static func error(_ error: APIError) -> HTTPResponse {
        json(error.status, ModelEncoding.error(error), headers: error.headers.map { ($0.name, $0.value) })
    }
}
