import MicroHTTP
import Zlib

extension ServiceEdge {
    /// Undoes a request body's `Content-Encoding` in place, or answers why it cannot: nil when
    /// the request may go on. `gzip` (or `x-gzip`) is inflated and the field removed, so the
    /// service sees the JSON; `identity`, no field or an empty body change nothing (a request
    /// without a body is never refused for its `Content-Encoding`). The inflated
    /// body may hold at most `maxBodyBytes` (inflating stops there: a small body that would
    /// inflate to gigabytes costs at most that much memory), else 413 `payload_too_large`; a
    /// body that is not gzip is 400 `bad_request`; any other coding, or several, 415
    /// `unsupported_media_type` naming it, with `Accept-Encoding: gzip` (RFC 7694).
    ///
    /// - Complexity: O(min(inflated size, `maxBodyBytes`)).
    /// The body limit of a request other than `maxBodyBytes`: a font upload (`POST
    /// /v1/fonts`) may be as large as the service's `maxFontBytes`. The server's
    /// `HTTPServer.bodyLimit`. O(1).
    public func bodyLimit(method: String, path: String) -> Int? {
        method == "POST" && path == "/v1/fonts" ? max(maxBodyBytes, service.limits.maxFontBytes) : nil
    }

    func decodedBody(_ request: inout HTTPRequest) -> APIError? {
        guard !request.body.isEmpty, let coding = request.header("content-encoding") else { return nil }
        let name = coding.lowercased().split(separator: ",").map(\.trimmingSpaces).filter { !$0.isEmpty && $0 != "identity" }
        if name.isEmpty { return nil }
        let limit = bodyLimit(method: request.method, path: request.path) ?? maxBodyBytes
        guard name.count == 1, name[0] == "gzip" || name[0] == "x-gzip" else {
            return APIError(.unsupportedMediaType,
                            message: "the body's Content-Encoding \"\(coding)\" is not supported: send it as it is, or gzip-compressed (Content-Encoding: gzip)",
                            field: "Content-Encoding", headers: [(name: "Accept-Encoding", value: "gzip")])
        }
        do {
            request.body = try Gzip.decompress(request.body, limit: limit)
        } catch where error.exceedsLimit {
            return APIError(.payloadTooLarge,
                            message: "the body inflates to more than the limit of \(limit) bytes (the body limit applies to the inflated body)",
                            field: "Content-Encoding")
        } catch {
            return APIError(.badRequest, message: "the body is not valid gzip (Content-Encoding: gzip): \(error.message)",
                            field: "Content-Encoding")
        }
        request.headers.removeAll { $0.name == "content-encoding" || $0.name == "content-length" }
        return nil
    }
}
