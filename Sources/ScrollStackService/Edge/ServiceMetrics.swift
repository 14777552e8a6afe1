import CoreMetrics
import Dispatch
import MicroHTTP
import Prometheus
import Synchronization

#if canImport(Glibc)
import Glibc
#endif

/// What `GET /metrics` exposes (`--metrics`), in Prometheus's text format: swift-metrics
/// instruments made by swift-prometheus's factory on a registry of this server's own (no
/// global `MetricsSystem`, so several servers in one process keep their figures apart).
///
/// Figures come three ways, so that the request path pays almost nothing:
/// - **Recorded per request by the edge** (`record`): requests by route pattern, method and
///   status, and their latency by route and method. One lock held for a dictionary lookup,
///   an atomic increment and a histogram update; the instruments of a label set are made
///   once, on its first request.
/// - **Reported by the journal** through its commit hook (`StackJournal.observeCommits`):
///   each transaction's duration and number of writes.
/// - **Sampled when scraped** (`exposition`): connections, requests in flight and event
///   streams from the HTTP server, stacks, rows, piles and the snapshot backlog from the
///   service, resident memory from `/proc`.
///
/// Labels never hold what a client chose: routes are patterns (`/v1/stacks/{stack}`), unknown
/// paths are `unmatched`, methods outside HTTP's usual ones are `other`.
public final class ServiceMetrics: Sendable {
    let service: StackService
    private let registry = PrometheusCollectorRegistry()
    private let factory: PrometheusMetricsFactory
    /// The instruments of each (route, method, status) seen so far: one lookup per request.
    private let instruments = Mutex<[Key: Instruments]>([:])
    private let server = Mutex<WeakServer>(WeakServer())
    private let sampled: Sampled

    /// Request latency buckets, in seconds: a cached read takes tens of microseconds, a
    /// durable write about a millisecond (one fsync), a big layout or snapshot seconds.
    static let latencyBuckets: [Duration] = [
        .microseconds(100), .microseconds(250), .microseconds(500), .milliseconds(1), .microseconds(2500),
        .milliseconds(5), .milliseconds(10), .milliseconds(25), .milliseconds(50), .milliseconds(100),
        .milliseconds(250), .milliseconds(500), .seconds(1), .milliseconds(2500), .seconds(5), .seconds(10),
    ]
    /// Writes per journal transaction: 1 without contention, up to one per writing thread.
    static let batchBuckets: [Double] = [1, 2, 4, 8, 16, 32, 64, 128]

    private struct Key: Hashable {
        let route: String
        let method: String
        let status: Int
    }

    /// A label set's counter, and its route and method's latency histogram (shared by every
    /// status).
    private struct Instruments {
        let requests: CoreMetrics.Counter
        let duration: CoreMetrics.Timer
    }

    private struct WeakServer: @unchecked Sendable {  // only read and written under the mutex
        weak var server: HTTPServer?
    }

    /// The gauges set at each scrape.
    private struct Sampled: @unchecked Sendable {  // swift-metrics' instruments are thread-safe
        let connections, inFlight, streams, stacks, unavailable, rows, piles, snapshots, memory: CoreMetrics.Gauge
    }

    private let commitDuration: CoreMetrics.Timer
    private let commitWrites: CoreMetrics.Recorder
    private let restoreSeconds: CoreMetrics.Gauge
    private let restoredStacks: CoreMetrics.Gauge

    /// Metrics of `service`; its journal (if any) reports its commits here from now on.
    public init(service: StackService) {
        self.service = service
        var factory = PrometheusMetricsFactory(registry: registry)
        factory.defaultDurationHistogramBuckets = Self.latencyBuckets
        factory.valueHistogramBuckets["scrollstack_journal_commit_writes"] = Self.batchBuckets
        self.factory = factory
        func gauge(_ name: String) -> CoreMetrics.Gauge { CoreMetrics.Gauge(label: "scrollstack_" + name, factory: factory) }
        sampled = Sampled(connections: gauge("http_open_connections"), inFlight: gauge("http_requests_in_flight"),
                          streams: gauge("event_streams_open"), stacks: gauge("stacks"), unavailable: gauge("stacks_unavailable"),
                          rows: gauge("rows"), piles: gauge("piles"), snapshots: gauge("journal_snapshots_pending"),
                          memory: CoreMetrics.Gauge(label: "process_resident_memory_bytes", factory: factory))
        commitDuration = CoreMetrics.Timer(label: "scrollstack_journal_commit_duration_seconds", factory: factory)
        commitWrites = CoreMetrics.Recorder(label: "scrollstack_journal_commit_writes", aggregate: true, factory: factory)
        restoreSeconds = gauge("restore_duration_seconds")
        restoredStacks = gauge("restored_stacks")
        service.journal?.observeCommits { [commitDuration, commitWrites] writes, nanoseconds in
            commitDuration.recordNanoseconds(Int64(clamping: nanoseconds))
            commitWrites.record(writes)
        }
    }

    /// Samples `server`'s connections, requests in flight and streams at each scrape (held
    /// weakly: the server holds the edge, which holds these metrics).
    public func observe(_ server: HTTPServer) {
        self.server.withLock { $0.server = server }
    }

    /// Records how long start-up took to restore the stacks, and how many it restored.
    public func recordRestore(stacks: Int, seconds: Double) {
        restoreSeconds.record(seconds)
        restoredStacks.record(stacks)
    }

    /// Counts one answered request under its route pattern (nil: `unmatched`), and records its
    /// latency when given (the HTTP layer's own refusals have none: they are counted only).
    ///
    /// - Complexity: O(1) (a new label set makes its instruments once).
    func record(method: String, route: String?, status: Int, nanoseconds: UInt64?) {
        let key = Key(route: route ?? "unmatched", method: Self.methodLabel(method), status: status)
        let (requests, duration) = instruments.withLock { instruments -> (CoreMetrics.Counter, CoreMetrics.Timer) in
            if let found = instruments[key] { return (found.requests, found.duration) }
            // A new label set. The registry hands out the histogram its route and method
            // already have, if any.
            let duration = CoreMetrics.Timer(label: "scrollstack_http_request_duration_seconds",
                                             dimensions: [("route", key.route), ("method", key.method)], factory: factory)
            let requests = CoreMetrics.Counter(label: "scrollstack_http_requests_total",
                                               dimensions: [("route", key.route), ("method", key.method), ("status", String(status))],
                                               factory: factory)
            instruments[key] = Instruments(requests: requests, duration: duration)
            return (requests, duration)
        }
        requests.increment()
        if let nanoseconds { duration.recordNanoseconds(Int64(clamping: nanoseconds)) }
    }

    /// Every figure in Prometheus's text format (version 0.0.4), the sampled ones taken now.
    ///
    /// - Complexity: O(stacks + piles + label sets).
    func exposition() -> [UInt8] {
        if let server = server.withLock({ $0.server }) {
            sampled.connections.record(server.openConnections)
            sampled.inFlight.record(server.requestsInFlight)
            sampled.streams.record(server.openStreams)
        }
        let census = service.census()
        sampled.stacks.record(census.stacks)
        sampled.unavailable.record(census.unavailable)
        sampled.rows.record(census.rows)
        sampled.piles.record(census.piles)
        sampled.snapshots.record(service.journal?.pendingSnapshots ?? 0)
        if let memory = Self.residentMemory() { sampled.memory.record(memory) }
        return registry.emitToBuffer()
    }

    /// The method as a label: one of HTTP's usual methods, or `other` (any token is a
    /// method, and labels must not grow with what clients send).
    static func methodLabel(_ method: String) -> String {
        switch method {
        case "GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS": method
        default: "other"
        }
    }

    /// The process's resident set size in bytes: the second number of `/proc/self/statm`, in
    /// pages (nil where unreadable).
    static func residentMemory() -> Int? {
        let descriptor = open("/proc/self/statm", O_RDONLY)
        guard descriptor >= 0 else { return nil }
        defer { close(descriptor) }
        var bytes = [UInt8](repeating: 0, count: 128)
        let count = read(descriptor, &bytes, bytes.count)
        guard count > 0 else { return nil }
        let fields = bytes[..<count].split(separator: UInt8(ascii: " "))
        guard fields.count > 1, let pages = Int(String(decoding: fields[1], as: UTF8.self)) else { return nil }
        return pages * Int(sysconf(Int32(_SC_PAGESIZE)))
    }
}
