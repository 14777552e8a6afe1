/// Why `scrollstackd healthcheck` got no HTTP status from the server.
struct HealthCheckError: Error, CustomStringConvertible {
    let description: String
}
