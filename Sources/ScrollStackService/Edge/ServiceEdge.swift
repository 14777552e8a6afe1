import Dispatch
import MicroHTTP

/// The service as the network sees it: the steps every request goes through before and after
/// `StackService.handle`, in order:
/// 1. A `Host` the host policy does not admit gets 421 (DNS rebinding).
/// 2. `OPTIONS` is answered here: a CORS preflight from the route's methods, or `Allow`.
/// 3. A request that would change a stack from an `Origin` the CORS policy does not admit (and
///    that is not the server's own) gets 403: browsers send some without a preflight.
/// 4. With tokens configured, every `/v1` request needs `Authorization: Bearer TOKEN`
///    (401 without a valid one, 403 for a read token on a mutation).
/// 5. The service answers, once a body sent with `Content-Encoding: gzip` is inflated (to at
///    most `maxBodyBytes`, 413 beyond; any other coding but `identity` gets 415: `decodedBody`).
/// 6. CORS headers for the request's `Origin`; `nosniff` and a Content Security Policy on
///    pages and drawings.
/// 7. gzip, when the client accepts it and the answer is large enough.
/// 8. With `metrics`, the request is counted under its route pattern and status, and its
///    latency (steps 1 to 7) recorded; `GET /metrics` answers them (behind the tokens too).
///
/// Steps 1, 3 and 4 need only the request's head (`admission`), so the server applies them
/// before it reads a body, and before it answers `Expect: 100-continue`.
///
/// The journal's replay calls `StackService.handle` directly, so it is never subject to these
/// steps: what was acknowledged once is restored whatever the tokens are now.
public final class ServiceEdge: Sendable {
    public let service: StackService
    public let cors: CORSPolicy
    public let tokens: AccessTokens
    public let hosts: HostPolicy
    /// The tickets `POST /v1/event-tickets` answers, for `EventSource`.
    let tickets: EventTickets
    /// What `/metrics` answers; nil (no `--metrics`): nothing is recorded and `/metrics` is 404.
    public let metrics: ServiceMetrics?
    /// The most bytes a request body may hold once its `Content-Encoding` is undone: the
    /// server's limit on the bytes received (`--max-body-bytes`).
    public let maxBodyBytes: Int

    /// The `Content-Security-Policy` of drawings (SVG): nothing is fetched or run.
    let drawingPolicy: String
    /// The `Content-Security-Policy` of the viewer page: its one inline script (by hash), the
    /// API, and framing by the origins the CORS policy admits.
    let pagePolicy: String

    public init(service: StackService, cors: CORSPolicy, tokens: AccessTokens = AccessTokens(), hosts: HostPolicy = .any,
                metrics: ServiceMetrics? = nil, maxBodyBytes: Int = 1 << 20) {
        self.service = service
        self.maxBodyBytes = maxBodyBytes
        self.cors = cors
        self.tokens = tokens
        self.hosts = hosts
        self.tickets = EventTickets(tokens: tokens)
        self.metrics = metrics
        drawingPolicy = "default-src 'none'; style-src 'unsafe-inline'; frame-ancestors \(cors.frameAncestors)"
        pagePolicy = "default-src 'none'; script-src 'sha256-\(ViewerPage.scriptDigest)'; style-src 'unsafe-inline'; "
            + "connect-src 'self'; img-src 'self' data:; base-uri 'none'; form-action 'none'; frame-ancestors \(cors.frameAncestors)"
    }

    /// Answers one request. Never throws.
    public func handle(_ request: HTTPRequest) -> HTTPResponse {
        var request = request
        let started = metrics == nil ? 0 : DispatchTime.now().uptimeNanoseconds
        let forMetrics = isMetricsPath(request.rawPath)
        var route: String?
        var routed = false
        var response: HTTPResponse
        if let misdirected = checkHost(request) {
            response = .error(misdirected)
        } else if request.method == "OPTIONS" {
            response = options(request, forMetrics: forMetrics)
        } else if let denied = checkOrigin(request) ?? authorize(request, forMetrics: forMetrics) {
            response = .error(denied)
        } else if let refused = decodedBody(&request) {
            response = .error(refused)
        } else if forMetrics, let metrics {
            response = metricsAnswer(request, metrics)
        } else if Self.isTicketsPath(request.rawPath) {
            response = ticketAnswer(request)
            route = Self.ticketsPath
        } else {
            response = service.handle(request, route: &route)
            routed = true
        }
        if response.deferred != nil {
            // Steps 6 to 8 when the answer is sent (`DeferredResponse`).
            let (label, request) = (route, request)
            return response.mapped { [self] answer in finish(answer, for: request, started: started, route: label, routed: true, forMetrics: false) }
        }
        return finish(response, for: request, started: started, route: route, routed: routed, forMetrics: forMetrics)
    }

    /// Steps 1, 3 and 4 on a request's head: nil when it may proceed, otherwise the answer
    /// (421, 403 or 401). `OPTIONS` is admitted here (it is answered whole by `handle`). The
    /// server calls it as its `headGate`, so a refused body is never read.
    public func admission(_ request: HTTPRequest) -> HTTPResponse? {
        let started = metrics == nil ? 0 : DispatchTime.now().uptimeNanoseconds
        if let misdirected = checkHost(request) { return finish(.error(misdirected), for: request, started: started, route: nil, routed: false, forMetrics: false) }
        if request.method == "OPTIONS" { return nil }
        guard let denied = checkOrigin(request) ?? authorize(request, forMetrics: isMetricsPath(request.rawPath)) else { return nil }
        return finish(.error(denied), for: request, started: started, route: nil, routed: false, forMetrics: false)
    }

    /// Step 1: 421 for a `Host` the policy does not admit.
    private func checkHost(_ request: HTTPRequest) -> APIError? {
        guard hosts.names != nil else { return nil }
        let host = request.header("host")
        guard !hosts.admits(host) else { return nil }
        return APIError(.misdirectedRequest,
                        message: "this server answers only for IP addresses, localhost and the names given with --allowed-host; "
                            + "start it with --allowed-host NAME to serve another name",
                        field: "Host")
    }

    /// Step 3: 403 for a request that would change a stack from an origin the CORS policy does
    /// not admit and that is not the server's own (`scheme://Host`).
    private func checkOrigin(_ request: HTTPRequest) -> APIError? {
        guard cors.origins != nil, let origin = request.header("origin"), !cors.admits(origin),
              StackService.changesState(method: request.method, path: request.rawPath), !Self.isTicketsPath(request.rawPath) else { return nil }
        if let host = request.header("host"), origin == "http://" + host || origin == "https://" + host { return nil }
        return APIError(.originNotAllowed,
                        message: "the origin \(origin) may not change stacks here: list it with --cors-origin", field: "Origin")
    }

    /// Steps 6 to 8 for `response`, the answer to `request` (handled from `started`).
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
        if let type = response.header("content-type"), type.hasPrefix("text/html") || type.hasPrefix("image/svg+xml") {
            let page = type.hasPrefix("text/html")
            let fields = [(name: "X-Content-Type-Options", value: "nosniff"), (name: "Content-Security-Policy", value: page ? pagePolicy : drawingPolicy)]
                + (page ? [(name: "Referrer-Policy", value: "no-referrer")] : [])
            // Before a kept answer's `Vary: Accept-Encoding`, as the CORS fields.
            response.headers.insert(contentsOf: fields, at: Self.endsWithVaryField(response) ? response.headers.count - 1 : response.headers.count)
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
        let known = forMetrics ? Self.metricsMethods : Self.isTicketsPath(request.rawPath) ? Self.ticketsMethods : service.methods(forPath: request.rawPath)
        guard let methods = known else {
            return .error(.routeNotFound(request.method, request.path))
        }
        let allowed = (methods + ["OPTIONS"]).joined(separator: ", ")
        guard let origin = request.header("origin"), request.header("access-control-request-method") != nil else {
            return HTTPResponse(status: 204, headers: [("Allow", allowed)])
        }
        guard cors.admits(origin) else {
            // `finish` adds `Vary: Origin`.
            return .error(APIError(.originNotAllowed, message: "the origin \(origin) is not allowed by --cors-origin",
                                   field: "Origin"))
        }
        var headers = cors.responseHeaders(origin: origin)
        headers += [
            ("Access-Control-Allow-Methods", allowed),
            ("Access-Control-Allow-Headers", StackService.requestHeaders(methods: methods, path: request.rawPath).joined(separator: ", ")),
            ("Access-Control-Max-Age", String(cors.maxAge)),
        ]
        // Private Network Access: a public page's preflight to a private address asks this.
        if request.header("access-control-request-private-network")?.lowercased() == "true" {
            headers.append(("Access-Control-Allow-Private-Network", "true"))
        }
        return HTTPResponse(status: 204, headers: headers)
    }

    /// nil when the request may proceed; otherwise the 401 or 403 to answer.
    private func authorize(_ request: HTTPRequest, forMetrics: Bool) -> APIError? {
        guard !tokens.isEmpty, forMetrics || StackService.needsToken(request) else { return nil }
        let realm = "Bearer realm=\"scrollstack\""
        if request.header("authorization") == nil, let ticket = request.queryValue(StackService.ticketParameter), Self.isEventsRead(request) {
            guard tickets.accepts(ticket, now: EventTickets.now) else {
                return APIError(.invalidToken, message: "the ticket is not valid here, or has expired: ask POST /v1/event-tickets for another",
                                field: "ticket", headers: [("WWW-Authenticate", realm + ", error=\"invalid_token\"")])
            }
            return nil
        }
        guard let header = request.header("authorization") else {
            return APIError(.unauthorized, message: "this server needs Authorization: Bearer TOKEN",
                            field: "Authorization", headers: [("WWW-Authenticate", realm)])
        }
        // Optional whitespace around a field value is not part of it (RFC 9110, 5.5).
        var value = Substring(header).drop { $0 == " " || $0 == "\t" }
        while let last = value.last, last == " " || last == "\t" { value = value.dropLast() }
        let scheme = value.prefix { $0 != " " }
        let token = value.dropFirst(scheme.count).drop { $0 == " " }
        guard scheme.lowercased() == "bearer", let scope = tokens.scope(of: token.utf8) else {
            return APIError(.invalidToken, message: "the bearer token is not valid here",
                            field: "Authorization", headers: [("WWW-Authenticate", realm + ", error=\"invalid_token\"")])
        }
        if scope == .read && StackService.changesState(method: request.method, path: request.rawPath) && !Self.isTicketsPath(request.rawPath) {
            return APIError(.insufficientScope, message: "this token may only read; \(request.method) needs a write token",
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
