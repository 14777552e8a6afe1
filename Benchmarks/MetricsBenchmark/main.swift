import JSONCodec
import MicroHTTP
import ScrollStackService

#if canImport(Glibc)
import Glibc
#endif

// What recording metrics adds to a request, without the network: `ServiceEdge.handle` called
// in a loop on one service through two edges, one without metrics and one with them, in
// alternating rounds. Time is this thread's CPU time (CLOCK_THREAD_CPUTIME_ID), so other load
// on a shared machine disturbs it far less than wall-clock rates. Prints the median ns per
// request of each edge over the rounds, the difference and the ratio.
//     swift run -c release metrics-benchmark [ROUNDS] [REQUESTS_PER_ROUND]

let arguments = CommandLine.arguments.dropFirst().compactMap { Int($0) }
let rounds = arguments.first ?? 9
let perRound = arguments.dropFirst().first ?? 20_000

func threadNanoseconds() -> UInt64 {
    var time = timespec()
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &time)
    return UInt64(time.tv_sec) * 1_000_000_000 + UInt64(time.tv_nsec)
}

let service = StackService()
let off = ServiceEdge(service: service, cors: try CORSPolicy())
let on = ServiceEdge(service: service, cors: try CORSPolicy(), metrics: ServiceMetrics(service: service))
let create = HTTPRequest(method: "POST", path: "/v1/stacks", headers: [("Content-Type", "application/json")],
                         body: Array(#"{"id":"home","rows":[{"id":"photo","view":{"type":"V"},"size":{"fixed":40}}]}"#.utf8))
precondition(off.handle(create).status == 201)

print("ServiceEdge.handle, \(perRound) requests per round, median of \(rounds) alternating rounds; ns of thread CPU per request")
print("path".rightPadded(30), "  metrics off   metrics on   added   ratio")
for path in ["/healthz", "/v1/stacks/home/rows/photo", "/v1/stacks/home"] {
    let request = HTTPRequest(method: "GET", path: path)
    var samples: [[Double]] = [[], []]
    for _ in 0..<rounds {
        for (index, edge) in [off, on].enumerated() {
            let started = threadNanoseconds()
            for _ in 0..<perRound { precondition(edge.handle(request).status == 200) }
            samples[index].append(Double(threadNanoseconds() - started) / Double(perRound))
        }
    }
    let medians = samples.map { $0.sorted()[$0.count / 2] }
    print(path.rightPadded(30),
          String(repeating: " ", count: 2), String(Int(medians[0].rounded())).leftPadded(11), String(Int(medians[1].rounded())).leftPadded(12),
          String(Int((medians[1] - medians[0]).rounded())).leftPadded(7), String(Int((medians[1] / medians[0] * 100).rounded()) ).leftPadded(6) + " %")
}

extension String {
    func leftPadded(_ width: Int) -> String { String(repeating: " ", count: max(0, width - count)) + self }
    func rightPadded(_ width: Int) -> String { self + String(repeating: " ", count: max(0, width - count)) }
}
