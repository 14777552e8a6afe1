import Dispatch
import MicroHTTP
import ScrollStackStore
import Synchronization

/// Which replica writes each stack, and the hand-over of a write to it (Semantics.md, "One
/// writer per stack").
///
/// Replicas started with an address (`--advertise-url`) are *members*: each records itself in
/// the shared store about once a second (`refresh`) and reads the members seen within the
/// last `liveness` seconds. Each stack has one member that writes it, the one of highest
/// rendezvous weight for the stack's id (`weight`), which every replica computes alike from
/// the same list; members joining or leaving move only the stacks they win or held. A write
/// reaching another replica is forwarded to that member, so that one replica batches a
/// stack's concurrent writes into one transaction, where replicas racing for the stack's
/// revisions would each lose most of theirs and run them again.
///
/// Only *contended* stacks are forwarded: one on which a write here lost a race (or was
/// judged on a state another replica had moved past) within the last `contentionSeconds`,
/// or whose owner said so in its answer to a forwarded write. The owner says so while the
/// stack's writes come from more than one source (forwarding replicas, and its own clients)
/// within that time. So a stack written through one replica only (a balancer hashing on the
/// path, clients that keep to one replica) is written where its writes arrive, with no hop,
/// and a stack written through several replicas keeps going to its owner while it is.
///
/// Ownership only routes writes; it decides nothing. The journal's conditional append still
/// decides every revision, so two replicas that briefly disagree on the owner (a member
/// joined or died within the last seconds) write the stack as replicas without owners do,
/// and stay correct.
final class WriteOwners: Sendable {
    /// Marks a request forwarded by a replica: handled where it arrives, never forwarded
    /// again. A client setting it only gives up the forwarding (its write races as on replicas
    /// without owners), so it needs no secret.
    static let forwardedHeader = "x-scrollstack-forwarded"
    /// On the owner's answer to a forwarded write: the stack's writes come from several
    /// sources, so keep forwarding them. Not passed on to clients.
    static let contendedHeader = "x-scrollstack-contended"
    /// A member not seen for this many seconds is taken for dead.
    static let liveness = 3

    /// How long a sign of contention (`noteContended`) makes a stack's writes go to its
    /// owner, and how long the owner remembers a source of writes (2 s by default).
    let contentionSeconds: Double

    /// This replica's address, or nil: it forwards, but writes no stack for others.
    let address: String?
    let forwarder: HTTPForwarder
    private let memberList = Mutex<[String]>([])
    /// Stack id → the uptime (ns) of its last sign of contention.
    private let contended = Mutex<[String: UInt64]>([:])
    /// As owner: stack id → the sources of its writes (a forwarder's address, "" for this
    /// replica's own clients) → the uptime (ns) of the last write from each.
    private let sources = Mutex<[String: [String: UInt64]]>([:])
    /// Writes forwarded to their owner, and writes handled here because their owner could not
    /// be reached (for `/metrics` and tests).
    let forwarded = Atomic<Int>(0), unreachable = Atomic<Int>(0)

    init(address: String?, forwarder: HTTPForwarder = HTTPForwarder(), contentionSeconds: Double = 2) {
        self.address = address
        self.forwarder = forwarder
        self.contentionSeconds = contentionSeconds
    }

    /// Records this replica as a member (when it has an address) and takes the members seen
    /// within `liveness` seconds. On a failure the last list stays. One statement.
    func refresh(_ backend: any SharedJournalBackend) {
        contended.withLock { signs in
            let now = DispatchTime.now().uptimeNanoseconds
            signs = signs.filter { Self.seconds(from: $0.value, to: now) < contentionSeconds }
        }
        sources.withLock { stacks in
            let now = DispatchTime.now().uptimeNanoseconds
            stacks = stacks.compactMapValues { seen in
                let recent = seen.filter { Self.seconds(from: $0.value, to: now) < contentionSeconds }
                return recent.isEmpty ? nil : recent
            }
        }
        guard let found = try? backend.members(refreshing: address, liveness: Self.liveness) else { return }
        memberList.withLock { $0 = found }
    }

    /// As owner: notes a write of stack `id` from `source` (a forwarder's address, "" for
    /// this replica's clients), and returns whether the stack's writes came from more than one
    /// source within `contentionSeconds`. O(sources of the stack).
    func noteSource(_ id: String, _ source: String) -> Bool {
        sources.withLock { stacks in
            let now = DispatchTime.now().uptimeNanoseconds
            stacks[id, default: [:]][source] = now
            return stacks[id]!.values.filter { Self.seconds(from: $0, to: now) < contentionSeconds }.count > 1
        }
    }

    /// Notes a sign of contention on stack `id` (a write of it here lost a race, or its owner
    /// answered that several sources write it). O(1).
    func noteContended(_ id: String) {
        let now = DispatchTime.now().uptimeNanoseconds
        contended.withLock { $0[id] = now }
    }

    /// The uptime (ns) of stack `id`'s last sign of contention, if any (tests).
    func lastContention(of id: String) -> UInt64? { contended.withLock { $0[id] } }

    /// Whether stack `id` showed contention within `contentionSeconds`. O(1).
    func isContended(_ id: String) -> Bool {
        guard let sign = contended.withLock({ $0[id] }) else { return false }
        return Self.seconds(from: sign, to: DispatchTime.now().uptimeNanoseconds) < contentionSeconds
    }

    /// Seconds from uptime `start` to `end` (ns), 0 when `start` is later (noted by another
    /// thread after `end` was read).
    static func seconds(from start: UInt64, to end: UInt64) -> Double {
        end > start ? Double(end - start) / 1e9 : 0
    }

    /// The members seen at the last `refresh`, sorted.
    var members: [String] { memberList.withLock { $0 } }

    /// Where a write of stack `id` goes: its owner when the stack is contended and that is
    /// another member; nil (here) otherwise. O(members × the id's length).
    func destination(of id: String) -> String? {
        isContended(id) ? owner(of: id) : nil
    }

    /// The member writing stack `id`, or nil when that is this replica or no member is known.
    /// O(members × the id's length).
    func owner(of id: String) -> String? {
        let owner = memberList.withLock { list -> String? in
            var best: (String, UInt64)?
            for member in list {
                let weight = Self.weight(member, id)
                if best == nil || weight > best!.1 { best = (member, weight) }
            }
            return best?.0
        }
        return owner == address ? nil : owner
    }

    /// The rendezvous weight of `member` for `id`: FNV-1a over the member's bytes, a zero
    /// byte and the id's, then SplitMix64's finalizer (so that close names spread). The same
    /// in every process.
    static func weight(_ member: String, _ id: String) -> UInt64 {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in member.utf8 { hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01b3 }
        hash = hash &* 0x0000_0100_0000_01b3
        for byte in id.utf8 { hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01b3 }
        hash = (hash ^ (hash >> 30)) &* 0xbf58_476d_1ce4_e5b9
        hash = (hash ^ (hash >> 27)) &* 0x94d0_49bb_1331_11eb
        return hash ^ (hash >> 31)
    }

    /// Header fields not passed on either way: the connection's own, and those the edge of
    /// the replica answering the client writes (CORS, compression).
    static func passedOn(_ name: String) -> Bool {
        let name = name.lowercased()
        return !["connection", "keep-alive", "transfer-encoding", "te", "upgrade", "content-length", "expect", "accept-encoding",
          "content-encoding", "vary", "date", "proxy-authorization", "proxy-connection", forwardedHeader, contendedHeader].contains(name)
            && !name.hasPrefix("access-control-")
    }

    /// `request` as forwarded: the same method, target, fields (those `passedOn`, `Host`
    /// and `Authorization` included, so the owner checks them as this replica did) and body,
    /// marked forwarded.
    func forwarding(_ request: HTTPRequest) -> HTTPForwarder.Request {
        var headers = request.headers.filter { Self.passedOn($0.name) }
        headers.append((Self.forwardedHeader, address ?? "1"))
        return HTTPForwarder.Request(method: request.method, target: request.rawTarget, headers: headers, body: request.body)
    }

    /// The owner's answer as this replica's: status, fields `passedOn`, body.
    static func relayed(_ answer: HTTPForwarder.Answer) -> HTTPResponse {
        HTTPResponse(status: answer.status, fields: answer.headers.filter { passedOn($0.name) }, body: answer.body)
    }
}
