import Dispatch
import MicroHTTP

/// The service as the network sees it: the steps every request goes through before and after
/// `StackService.handle`, in order:
/// 1. `OPTIONS` is answered here: a CORS preflight from the route's methods, or `Allow`.
/// 2. With tokens configured, every `/v1` request needs `Authorization: Bearer TOKEN`
///    (401 without a valid one, 403 for a read token on a mutation).
/// 3. The service answers.
/// 4. CORS headers for the request's `Origin`.
/// 5. gzip, when the client accepts it and the answer is large enough.
/// 6. With `metrics`, the request is counted under its route pattern and status, and its
///    latency (steps 1 to 5) recorded; `GET /metrics` answers them (behind the tokens too).
///
/// The journal's replay calls `StackService.handle` directly, so it is never subject to these
/// steps: what was acknowledged once is restored whatever the tokens are now.
public final class ServiceEdge: Sendable {
    public let service: StackService
    public let cors: CORSPolicy
    public let tokens: AccessTokens
    /// What `/metrics` answers; nil (no `--metrics`): nothing is recorded and `/metrics` is 404.
    public let metrics: ServiceMetrics?

    public init(service: StackService, cors: CORSPolicy, tokens: AccessTokens = AccessTokens(), metrics: ServiceMetrics? = nil) {
        self.service = service
        self.cors = cors
        self.tokens = tokens
        self.metrics = metrics
    }

    /// Answers one request. Never throws.
    public func handle(_ request: HTTPRequest) -> HTTPResponse {
        let started = metrics == nil ? 0 : DispatchTime.now().uptimeNanoseconds
        let forMetrics = isMetricsPath(request.rawPath)
        var route: String?
        var routed = false
        var response: HTTPResponse
        if request.method == "OPTIONS" {
            response = options(request, forMetrics: forMetrics)
        } else if let denied = authorize(request, forMetrics: forMetrics) {
            response = .error(denied)
        } else if forMetrics, let metrics {
            response = metricsAnswer(request, metrics)
        } else {
            response = service.handle(request, route: &route)
            routed = true
        }
        if response.deferred != nil {
            // Steps 4 to 6 when the answer is sent (`DeferredResponse`).
            let label = route
            return response.mapped { [self] answer in finish(answer, for: request, started: started, route: label, routed: true, forMetrics: false) }
        }
        return finish(response, for: request, started: started, route: route, routed: routed, forMetrics: forMetrics)
    }

    /// Steps 4 to 6 for `response`, the answer to `request` (handled from `started`).
    private func finish(_ response: HTTPResponse, for request: HTTPRequest, started: UInt64, route: String?, routed: Bool,
                        forMetrics: Bool) -> HTTPResponse {
        var response = response
        var route = route
        // Only when there are fields: appending none would still copy a shared response.
        let fields = cors.responseHeaders(origin: request.header("origin"))
        if !fields.isEmpty && !response.isPreflight {
            // Before a kept answer's `Vary: Accept-Encoding`, where `compressed` would add it.
            let at = Self.endsWithVaryField(response) ? response.headers.count - 1 : response.headers.count
            response.headers.insert(contentsOf: fields.map { (name: $0.0, value: $0.1) }, at: at)
        }
        let answer = compressed(response, for: request)
        if let metrics {
            if !routed { route = forMetrics ? Self.metricsPath : service.routePattern(method: request.method, path: request.rawPath) }
            metrics.record(method: request.method, route: route, status: answer.status,
                           nanoseconds: DispatchTime.now().uptimeNanoseconds - started)
        }
        return answer
    }

    /// The JSON answer to a failure the HTTP layer detects itself (413), with CORS headers.
    public func respond(to request: HTTPRequest, failure: HTTPError) -> HTTPResponse {
        var response = service.respond(to: request, failure: failure)
        response.headers += cors.responseHeaders(origin: request.header("origin")).map { (name: $0.0, value: $0.1) }
        metrics?.record(method: request.method, route: service.routePattern(method: request.method, path: request.rawPath),
                        status: response.status, nanoseconds: nil)
        return response
    }

    /// `OPTIONS`: a CORS preflight (an `Origin` and `Access-Control-Request-Method`) gets 204
    /// with the route's methods and headers, or 403 for an origin the policy does not admit;
    /// any other `OPTIONS` gets 204 with `Allow`. Unknown paths are 404.
    private func options(_ request: HTTPRequest, forMetrics: Bool) -> HTTPResponse {
        guard let methods = forMetrics ? Self.metricsMethods : service.methods(forPath: request.rawPath) else {
            return .error(.routeNotFound(request.method, request.path))
        }
        let allowed = (methods + ["OPTIONS"]).joined(separator: ", ")
        guard let origin = request.header("origin"), request.header("access-control-request-method") != nil else {
            return HTTPResponse(status: 204, headers: [("Allow", allowed)])
        }
        guard cors.admits(origin) else {
            var response = HTTPResponse.error(APIError(status: 403, code: "origin_not_allowed",
                                                       message: "the origin \(origin) is not allowed by --cors-origin", field: "Origin"))
            if cors.variesByOrigin { response.headers.append((name: "Vary", value: "Origin")) }
            return response
        }
        var headers = cors.responseHeaders(origin: origin)
        headers += [
            ("Access-Control-Allow-Methods", allowed),
            ("Access-Control-Allow-Headers", StackService.requestHeaders(methods: methods, path: request.rawPath).joined(separator: ", ")),
            ("Access-Control-Max-Age", String(cors.maxAge)),
        ]
        return HTTPResponse(status: 204, headers: headers)
    }

    /// nil when the request may proceed; otherwise the 401 or 403 to answer.
    private func authorize(_ request: HTTPRequest, forMetrics: Bool) -> APIError? {
        guard !tokens.isEmpty, forMetrics || StackService.needsToken(request) else { return nil }
        let realm = "Bearer realm=\"scrollstack\""
        guard let header = request.header("authorization") else {
            return APIError(status: 401, code: "unauthorized", message: "this server needs Authorization: Bearer TOKEN",
                            field: "Authorization", headers: [("WWW-Authenticate", realm)])
        }
        let scheme = header.prefix { $0 != " " }
        let token = header.dropFirst(scheme.count).drop { $0 == " " }
        guard scheme.lowercased() == "bearer", let scope = tokens.scope(of: token.utf8) else {
            return APIError(status: 401, code: "invalid_token", message: "the bearer token is not valid here",
                            field: "Authorization", headers: [("WWW-Authenticate", realm + ", error=\"invalid_token\"")])
        }
        if scope == .read && StackService.changesState(method: request.method, path: request.rawPath) {
            return APIError(status: 403, code: "insufficient_scope", message: "this token may only read; \(request.method) needs a write token",
                            field: "Authorization",
                            headers: [("WWW-Authenticate", realm + ", error=\"insufficient_scope\", scope=\"write\"")])
        }
        return nil
    }
}

extension HTTPResponse {
    /// A CORS preflight's answer already carries its `Access-Control-*` headers.
    var isPreflight: Bool { header("access-control-max-age") != nil }
}
