import MicroHTTP

extension ServiceEdge {
    /// The route label of `/metrics` itself.
    static let metricsPath = "/metrics"
    /// What `/metrics` accepts.
    static let metricsMethods = ["GET", "HEAD"]

    /// Whether `rawPath` is `/metrics` and metrics are on. Empty segments are ignored, as the
    /// router ignores them (`//metrics/`); the word must be written as is (`/%6Detrics` is
    /// no way around the tokens: it is simply an unknown path).
    ///
    /// - Complexity: O(path length) on its bytes, no allocation: it runs on every request.
    func isMetricsPath(_ rawPath: String) -> Bool {
        let slash = UInt8(ascii: "/")
        let bytes = rawPath.utf8
        guard metrics != nil, let first = bytes.firstIndex(where: { $0 != slash }),
              let last = bytes.lastIndex(where: { $0 != slash }) else { return false }
        return bytes[first...last].elementsEqual("metrics".utf8)
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
