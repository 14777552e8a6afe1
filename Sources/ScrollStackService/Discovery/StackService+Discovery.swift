import JSONCodec
import MicroHTTP

extension StackService {
    /// The paths `GET /` links to, by relation: `docs` (the contract as YAML, whose
    /// descriptions are the reference prose), `contract` (the same as JSON), `viewer` (the
    /// stacks in a browser) and `health` (`/healthz`). Relative to the server's root.
    static let indexLinks: [(relation: String, path: String)] = [
        ("docs", "/openapi.yaml"), ("contract", "/openapi.json"), ("viewer", "/view"), ("health", "/healthz"),
    ]

    /// `GET /`, for anyone: what this server is and where to go next. HTML (`IndexPage`) when
    /// the request's `Accept` prefers `text/html` to `application/json` (as a browser's does),
    /// otherwise JSON: `{"name", "version", "links": {relation: path}}`. `Vary: Accept`.
    func index(_ c: RequestContext) throws(APIError) -> HTTPResponse {
        try c.allowQuery([])
        let vary = ("Vary", "Accept")
        if Self.prefersHTML(c.request.header("accept")) {
            return HTTPResponse(status: 200, headers: [("Content-Type", "text/html; charset=utf-8"), ("Cache-Control", "no-cache"), vary],
                                body: IndexPage.html)
        }
        let links = JSONObject(Self.indexLinks.map { ($0.relation, JSON.string($0.path)) })
        let answer = JSON.object(JSONObject([("name", .string(IndexPage.name)), ("version", .string(OpenAPIDocument.version)),
                                             ("links", .object(links))]))
        return .json(200, answer, headers: [("Cache-Control", "no-cache"), vary])
    }

    /// Whether an `Accept` value ranks `text/html` above `application/json`: each type's
    /// quality is that of the most specific range naming it (`text/html`, `text/*`, `*/*`),
    /// 0 when none does. No `Accept` at all is JSON. O(length of the value).
    static func prefersHTML(_ accept: String?) -> Bool {
        guard let accept else { return false }
        // (specificity, quality) of the best match so far for each type.
        var html: (Int, Double) = (-1, 0), json: (Int, Double) = (-1, 0)
        for item in accept.lowercased().split(separator: ",") {
            let parts = item.split(separator: ";")
            let range = parts.first?.trimmingSpaces ?? ""
            var quality = 1.0
            for parameter in parts.dropFirst() {
                let pair = parameter.trimmingSpaces.split(separator: "=", maxSplits: 1)
                if pair.count == 2, pair[0].trimmingSpaces == "q" { quality = Double(pair[1].trimmingSpaces) ?? 0 }
            }
            func rank(_ type: Substring, _ subtype: Substring) -> Int? {
                if range == "\(type)/\(subtype)" { return 2 }
                if range == "\(type)/*" { return 1 }
                return range == "*/*" ? 0 : nil
            }
            if let r = rank("text", "html"), r > html.0 { html = (r, quality) }
            if let r = rank("application", "json"), r > json.0 { json = (r, quality) }
        }
        return html.1 > json.1
    }

    /// `GET /openapi.yaml`, for anyone: Docs/openapi.yaml as the binary was built with it
    /// (`OpenAPIDocument`), `application/yaml`.
    func openAPIYAML(_ c: RequestContext) throws(APIError) -> HTTPResponse {
        try c.allowQuery([])
        return Self.contractAnswer(ServedDocument.yaml, c)
    }

    /// `GET /openapi.json`, for anyone: the same document as JSON.
    func openAPIJSON(_ c: RequestContext) throws(APIError) -> HTTPResponse {
        try c.allowQuery([])
        return Self.contractAnswer(ServedDocument.json, c)
    }

    /// A contract document with its strong ETag (a digest of its bytes) and
    /// `Cache-Control: public, max-age=300`; 304 when `If-None-Match` names that ETag (or `*`).
    private static func contractAnswer(_ document: ServedDocument, _ c: RequestContext) -> HTTPResponse {
        let headers = [("ETag", document.tag), ("Cache-Control", "public, max-age=300")]
        if let wanted = c.request.header("if-none-match"),
           wanted.split(separator: ",").contains(where: { $0.trimmingSpaces == "*" || $0.trimmingSpaces == document.tag || $0.trimmingSpaces == "W/" + document.tag }) {
            return HTTPResponse(status: 304, headers: headers)
        }
        var response = HTTPResponse(status: 200, headers: [("Content-Type", document.type)] + headers, body: document.body)
        response.gzipBody = document.gzipped
        return response
    }
}

/// One of the contract's two served forms, with what its answers need, computed once.
struct ServedDocument: Sendable {
    let type: String
    let body: [UInt8]
    /// `"` + the first 32 hex digits of the body's SHA-256 + `"`.
    let tag: String
    /// The body gzip-compressed (the edge sends it to clients accepting gzip), or nil.
    let gzipped: [UInt8]?

    init(type: String, text: String) {
        self.type = type
        body = Array(text.utf8)
        let hex = SHA256.digest(body).prefix(16).map { byte in
            let digits = Array("0123456789abcdef")
            return String([digits[Int(byte >> 4)], digits[Int(byte & 15)]])
        }.joined()
        tag = "\"\(hex)\""
        gzipped = ServiceEdge.gzip(body)
    }

    static let yaml = ServedDocument(type: "application/yaml", text: OpenAPIDocument.yaml)
    static let json = ServedDocument(type: "application/json", text: OpenAPIDocument.json)
}
