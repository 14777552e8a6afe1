import MicroHTTP

extension ServiceEdge {
    /// The route label of `/metrics` itself.
    static let metricsPath = "/metrics"
    /// What `/metrics` accepts.
    static let metricsMethods = ["GET", "HEAD"]

    /// Whether `rawPath` is `/metrics` and metrics are on. Empty segments are ignored, as the
    /// router ignores them (`//metrics/`); the word must be written as is (`/%6Detrics` is
    /// no way around the tokens: it is simply an unknown path).
    func isMetricsPath(_ rawPath: String) -> Bool {
        metrics != nil && rawPath.utf8.count < 32 && rawPath.split(separator: "/") == ["metrics"]
    }

    /// `GET /metrics`: every figure in Prometheus's text format, sampled now; never cached.
    /// Other methods get 405.
    func metricsAnswer(_ request: HTTPRequest, _ metrics: ServiceMetrics) -> HTTPResponse {
        guard Self.metricsMethods.contains(request.method) else {
            return .error(.methodNotAllowed(request.method, allowed: Self.metricsMethods))
        }
        return HTTPResponse(status: 200, headers: [("Content-Type", "text/plain; version=0.0.4; charset=utf-8"), ("Cache-Control", "no-store")],
                            body: metrics.exposition())
    }
}
