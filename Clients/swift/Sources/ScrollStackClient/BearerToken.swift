import Foundation
import HTTPTypes
import OpenAPIRuntime
import OpenAPIURLSession

/// Sends a ScrollStack Server token (`--tokens`, `--token-file`) as `Authorization: Bearer` on
/// every request of the generated `Client`.
public struct BearerToken: ClientMiddleware {
    public let token: String

    public init(_ token: String) { self.token = token }

    public func intercept(
        _ request: HTTPRequest, body: HTTPBody?, baseURL: URL, operationID: String,
        next: (HTTPRequest, HTTPBody?, URL) async throws -> (HTTPResponse, HTTPBody?)
    ) async throws -> (HTTPResponse, HTTPBody?) {
        var request = request
        request.headerFields[.authorization] = "Bearer \(token)"
        return try await next(request, body, baseURL)
    }
}

/// Sends `If-Match` and `If-None-Match` as written. The generated code percent-encodes header
/// values (`"1"` becomes `%221%22`), and an entity tag must keep its quotes: the server
/// compares it byte for byte and would answer 412.
public struct EntityTagHeaders: ClientMiddleware {
    public init() {}

    public func intercept(
        _ request: HTTPRequest, body: HTTPBody?, baseURL: URL, operationID: String,
        next: (HTTPRequest, HTTPBody?, URL) async throws -> (HTTPResponse, HTTPBody?)
    ) async throws -> (HTTPResponse, HTTPBody?) {
        var request = request
        for name in [HTTPField.Name.ifMatch, .ifNoneMatch] {
            if let value = request.headerFields[name], let decoded = value.removingPercentEncoding {
                request.headerFields[name] = decoded
            }
        }
        return try await next(request, body, baseURL)
    }
}

extension Client {
    /// A client of the server at `baseURL` (e.g. `http://127.0.0.1:8080`) over URLSession,
    /// with `token` sent on every request when given, and entity tags sent as written.
    public static func scrollStack(baseURL: URL, token: String? = nil) -> Client {
        var middlewares: [any ClientMiddleware] = [EntityTagHeaders()]
        if let token { middlewares.append(BearerToken(token)) }
        return Client(serverURL: baseURL, transport: URLSessionTransport(), middlewares: middlewares)
    }
}
