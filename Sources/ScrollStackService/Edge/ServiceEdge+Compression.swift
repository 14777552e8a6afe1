import MicroHTTP
import Zlib

extension ServiceEdge {
    /// Answers smaller than this are sent as they are: gzip's header and trailer (18 bytes)
    /// and the CPU would buy little.
    static let compressionThreshold = 1024

    /// zlib's fastest level, as nginx's default: on a 25 MB layout it compresses about 2.5×
    /// faster than level 6 for 8.6 % of the size instead of 6.8 % (Docs/Benchmarks.md).
    static let compressionLevel: Int32 = 1

    /// The media types compressed: JSON, SVG, HTML, plain text (`/metrics`) and YAML (the contract).
    static let compressibleTypes: [StaticString] = ["application/json", "image/svg+xml", "text/html", "text/plain", "application/yaml"]

    /// Whether an `Accept-Encoding` value accepts gzip: `gzip` (or `x-gzip`, or `*`) with a
    /// q-value above 0. A `gzip;q=0` refuses it even when `*` is accepted.
    static func acceptsGzip(_ header: String?) -> Bool {
        guard var header else { return false }
        // One pass over the bytes (`String.UTF8View.contains` walks by index, twice).
        let isList = header.withUTF8 { bytes in bytes.contains { $0 == UInt8(ascii: ",") || $0 == UInt8(ascii: ";") } }
        if !isList {
            // One coding without parameters (`identity`, `gzip`): no list to parse.
            return ASCIIText.token(of: header, isOneOf: ["gzip", "x-gzip", "*"])
        }
        var wildcard = false
        for item in header.lowercased().split(separator: ",") {
            let parts = item.split(separator: ";")
            let coding = parts.first?.trimmingSpaces ?? ""
            var quality = 1.0
            for parameter in parts.dropFirst() {
                let pair = parameter.trimmingSpaces.split(separator: "=", maxSplits: 1)
                if pair.count == 2, pair[0].trimmingSpaces == "q" { quality = Double(pair[1].trimmingSpaces) ?? 0 }
            }
            if coding == "gzip" || coding == "x-gzip" { return quality > 0 }
            if coding == "*" { wildcard = quality > 0 }
        }
        return wildcard
    }

    /// Whether `response` is a whole body of a compressible type, not yet encoded (a streamed
    /// answer kept whole is sent as it was streamed: not compressed).
    static func hasCompressibleType(_ response: HTTPResponse) -> Bool {
        guard response.stream == nil, response.source == nil, !response.keptStream, response.header("content-encoding") == nil,
              let type = response.header("content-type") else { return false }
        return ASCIIText.token(of: type, isOneOf: compressibleTypes, upToParameters: true)
    }

    /// Whether `compressed(_:for:)` sends `response` gzip-compressed to `request`.
    static func gzips(_ response: HTTPResponse, for request: HTTPRequest) -> Bool {
        gzipsAnyType(response, for: request) && hasCompressibleType(response)
    }

    /// `gzips` but for the media type: the body is large enough and the request accepts gzip.
    private static func gzipsAnyType(_ response: HTTPResponse, for request: HTTPRequest) -> Bool {
        response.body.count >= compressionThreshold && acceptsGzip(request.header("accept-encoding"))
    }

    /// `body` at `compressionLevel`; nil if zlib fails.
    static func gzip(_ body: [UInt8]) -> [UInt8]? {
        try? Gzip.compress(body, level: compressionLevel)
    }

    /// The field every compressible answer ends with (before `Content-Encoding`), since its
    /// encoding depends on that header.
    static let varyField = (name: "Vary", value: "Accept-Encoding")

    /// Whether `response`'s last field is `varyField`: an answer kept for repeated reads is
    /// kept with it (`withVaryField`), so that sending it again copies nothing.
    static func endsWithVaryField(_ response: HTTPResponse) -> Bool {
        guard let last = response.headers.last else { return false }
        return last.name == varyField.name && last.value == varyField.value
    }

    /// `response` ending with `varyField` when it is compressible (as `compressed` would send
    /// it, before any `Content-Encoding`); unchanged otherwise.
    static func withVaryField(_ response: consuming HTTPResponse) -> HTTPResponse {
        guard !endsWithVaryField(response), hasCompressibleType(response) else { return response }
        response.headers.append(varyField)
        return response
    }

    /// `response` gzip-compressed (its `gzipBody` when it has one) when the request accepts it and the body is a compressible
    /// type of at least `compressionThreshold` bytes. Every compressible answer gets
    /// `Vary: Accept-Encoding` last (`varyField`; an answer that ends with it already, as kept
    /// answers do, is sent as it is), since its encoding depends on that header. Streams are never
    /// compressed (each event must reach the client as it is written), nor are streamed
    /// answers (`HTTPResponse.source`, see `StackService.streamedJSON`).
    ///
    /// - Complexity: O(body size).
    func compressed(_ response: HTTPResponse, for request: HTTPRequest) -> HTTPResponse {
        // Only `withVaryField` and this put `varyField` last, and only on compressible answers.
        let varies = Self.endsWithVaryField(response)
        guard varies || Self.hasCompressibleType(response) else { return response }
        var response = response
        if !varies { response.headers.append(Self.varyField) }
        // Its type is known compressible: the rest of `gzips`.
        guard Self.gzipsAnyType(response, for: request), let body = response.gzipBody ?? Self.gzip(response.body) else { return response }
        response.body = body
        response.headers.append((name: "Content-Encoding", value: "gzip"))
        return response
    }
}
