import MicroHTTP
import Synchronization

/// Encoded answers to repeated reads of unchanged stacks, kept per (stack, revision, request):
/// a `GET` that asks again what was just answered gets the same bytes without a layout or an
/// encoding.
///
/// Rules:
/// - An answer is kept for the stack entry it was computed from and that entry's revision at
///   the time; a lookup hits only for the same entry (its `serial`: a deleted and re-created
///   stack is a new entry, even at the same address) at the same revision, so a stale answer
///   is never served.
/// - Every change forgets the stack's answers (`forget`, under the stack's write lock), so
///   what a change leaves behind costs no memory.
/// - The request is keyed by its method, its raw target (path and query as sent) and its
///   `Accept` field: everything a cached route's answer depends on besides the stack.
/// - An answer keeps its gzip encoding once one is made (`HTTPResponse.gzipBody`), counted
///   with its body.
/// - At most `capacity` bytes of bodies are kept; beyond, the stacks least recently read lose
///   all their answers. An answer larger than `largestAnswer` is never kept.
/// - At most `answersPerStack` answers are kept per stack: keeping one more forgets the
///   stack's others first. A client whose every read differs (sweeping offsets, or an
///   `Accept` parameter per request) so never piles up tens of thousands of small answers,
///   whose release all at once, when the stack was evicted, held one request for tens of
///   milliseconds (the uncached read's p99).
/// - A streamed answer is kept too, recorded as it is sent, from its second request at the
///   same revision on (`secondAsk`: a one-off request costs no recording), at most
///   `capacity / largestAnswer` recordings at once, each given up past `largestAnswer`
///   bytes, so recording holds at most `capacity` bytes more.
///
/// - Complexity: lookups and insertions O(1) (hashing the request), an eviction O(stacks kept).
final class AnswerCache: Sendable {
    /// The bytes of bodies kept, at most.
    let capacity: Int
    /// The largest body kept.
    let largestAnswer: Int

    private struct StackAnswers {
        /// The entry's `serial`: not a weak reference, which would give every entry a side
        /// table and slow each retain of it on the read path, and make this struct's moves
        /// runtime calls.
        let entry: UInt64
        let revision: Int
        var responses: [String: HTTPResponse] = [:]
        /// Keys of streamed answers asked once at this revision (`secondAsk`), at most
        /// `askedKeys`; counted in `bytes`.
        var asked: Set<String> = []
        var bytes = 0
        var lastUse: UInt64

        /// The answer kept for `key` if these are `entry`'s answers at `revision`, then used
        /// at `clock`. Mutating, so that it runs in place (`stacks[id]?.answer(…)`): a copy
        /// of this struct would retain its tables.
        mutating func answer(_ entry: StackEntry, _ revision: Int, _ key: String, clock: UInt64) -> HTTPResponse? {
            guard self.revision == revision, self.entry == entry.serial, let response = responses[key] else { return nil }
            lastUse = clock
            return response
        }

        /// Keeps `response` for `key` if these are `entry`'s answers at `revision` with room
        /// for it (`key` kept already, or fewer than `answersPerStack` others), used at
        /// `clock`; returns by how many bytes they grew (`size` less the answer replaced), or
        /// nil when it was not kept here. Mutating, so that it runs in place, like `answer`.
        mutating func keep(_ response: HTTPResponse, _ entry: StackEntry, _ revision: Int, _ key: String, size: Int,
                           clock: UInt64) -> Int? {
            guard self.revision == revision, self.entry == entry.serial else { return nil }
            if responses.count >= AnswerCache.answersPerStack, responses[key] == nil { return nil }
            var grown = size
            if let old = responses.updateValue(response, forKey: key) { grown -= AnswerCache.size(of: old, key: key) }
            bytes += grown
            lastUse = clock
            return grown
        }
    }

    private struct State {
        var stacks: [ObjectIdentifier: StackAnswers] = [:]
        var bytes = 0
        var clock: UInt64 = 0
    }

    private let state = Mutex(State())
    /// Streamed answers being recorded now.
    private let recordings = Atomic<Int>(0)

    /// 32 MiB: a streamed full layout of 100,000 rows (24.7 MB) is kept; two at most.
    init(capacity: Int = 64 << 20, largestAnswer: Int = 32 << 20) {
        self.capacity = capacity
        self.largestAnswer = largestAnswer
    }

    /// The most keys `secondAsk` remembers per stack and revision.
    static let askedKeys = 64

    /// The most answers kept per stack (see the rules): releasing this many takes well under
    /// a millisecond.
    static let answersPerStack = 256

    /// Whether `key` was asked before on `entry` at `revision` (and so is worth recording);
    /// remembers it when not. A change of revision forgets what was asked.
    func secondAsk(_ entry: StackEntry, revision: Int, key: String) -> Bool {
        // What is dropped is returned, so that it is freed after the lock.
        let (asked, _) = state.withLock { state -> (Bool, [StackAnswers]) in
            let (id, replaced) = Self.slot(&state, entry, revision)
            var dropped = replaced.map { [$0] } ?? []
            if state.stacks[id]!.asked.contains(key) { return (true, dropped) }
            if state.stacks[id]!.asked.count < Self.askedKeys {
                state.stacks[id]!.asked.insert(key)
                state.stacks[id]!.bytes += key.utf8.count
                state.bytes += key.utf8.count
                dropped += evict(&state)
            }
            return (false, dropped)
        }
        return asked
    }

    /// Takes one of the `capacity / largestAnswer` (at least one) recording slots, or says
    /// there is none free; give it back with `endRecording()`.
    func beginRecording() -> Bool {
        let slots = max(1, capacity / max(1, largestAnswer))
        if recordings.add(1, ordering: .relaxed).newValue <= slots { return true }
        recordings.subtract(1, ordering: .relaxed)
        return false
    }

    /// Gives back a slot `beginRecording()` took.
    func endRecording() {
        recordings.subtract(1, ordering: .relaxed)
    }

    /// Recordings under way (for tests).
    var recordingsUnderWay: Int { recordings.load(ordering: .relaxed) }

    /// The request's key: method, raw target and `Accept`, as `METHOD TARGET\nACCEPT`,
    /// copied into one string of the right size (one allocation; appending piece by piece
    /// cost about 2,000 instructions per cached read). O(key).
    static func key(_ request: HTTPRequest) -> String {
        let (method, target, accept) = (request.method, request.rawTarget, request.header("accept") ?? "")
        let count = method.utf8.count + target.utf8.count + accept.utf8.count + 2
        return String(unsafeUninitializedCapacity: count) { buffer in
            // No variable captured by a closure here: each would be checked for exclusive
            // access at run time.
            var at = copy(method, into: buffer, at: 0)
            buffer[at] = UInt8(ascii: " ")
            at = copy(target, into: buffer, at: at + 1)
            buffer[at] = UInt8(ascii: "\n")
            return copy(accept, into: buffer, at: at + 1)
        }
    }

    /// Copies `text`'s UTF-8 into `buffer` from `start`; returns where it ends.
    private static func copy(_ text: String, into buffer: UnsafeMutableBufferPointer<UInt8>, at start: Int) -> Int {
        var text = text
        return text.withUTF8 { bytes in
            _ = UnsafeMutableBufferPointer(rebasing: buffer[start...]).initialize(fromContentsOf: bytes)
            return start + bytes.count
        }
    }

    /// The answer kept for `key` on `entry` at `revision`, if any.
    func answer(_ entry: StackEntry, revision: Int, key: String) -> HTTPResponse? {
        state.withLock { state in
            let clock = state.clock + 1
            guard let response = state.stacks[ObjectIdentifier(entry)]?.answer(entry, revision, key, clock: clock) else { return nil }
            state.clock = clock
            return response
        }
    }

    /// Keeps `response` for `key` on `entry` at `revision` (replacing the answers of any other
    /// revision), unless it is too large.
    func keep(_ response: HTTPResponse, for entry: StackEntry, revision: Int, key: String) {
        let size = Self.size(of: response, key: key)
        guard size <= largestAnswer else { return }
        // What is dropped is returned, so that it is freed after the lock.
        _ = state.withLock { state -> [StackAnswers] in
            state.clock += 1
            let id = ObjectIdentifier(entry)
            var dropped: [StackAnswers] = []
            // In place (`[id]?.keep`), so the stack's table of answers is never copied.
            if let grown = state.stacks[id]?.keep(response, entry, revision, key, size: size, clock: state.clock) {
                state.bytes += grown
            } else {
                // No answers of this entry at this revision, or `answersPerStack` others: a
                // new table replaces the old one.
                var fresh = StackAnswers(entry: entry.serial, revision: revision, lastUse: state.clock)
                state.bytes += fresh.keep(response, entry, revision, key, size: size, clock: state.clock) ?? 0
                if let old = state.stacks.updateValue(fresh, forKey: id) {
                    state.bytes -= old.bytes
                    dropped.append(old)
                }
            }
            dropped += evict(&state)
            return dropped
        }
    }

    /// Ticks the clock and makes sure `state.stacks` has a slot for `entry` at `revision`:
    /// the slot's key, and the answers of another entry or revision it replaced (to be freed
    /// after the lock), if any. O(1).
    private static func slot(_ state: inout State, _ entry: StackEntry, _ revision: Int) -> (ObjectIdentifier, StackAnswers?) {
        let id = ObjectIdentifier(entry)
        state.clock += 1
        var replaced: StackAnswers?
        if let kept = state.stacks[id], kept.entry != entry.serial || kept.revision != revision {
            state.bytes -= kept.bytes
            replaced = state.stacks.removeValue(forKey: id)
        }
        if state.stacks[id] == nil { state.stacks[id] = StackAnswers(entry: entry.serial, revision: revision, lastUse: state.clock) }
        return (id, replaced)
    }

    /// Takes the least recently used stacks' answers out while over `capacity`, and hands
    /// them back so that the caller frees them after the lock (tens of thousands of small
    /// answers at once, which other threads should not wait for).
    private func evict(_ state: inout State) -> [StackAnswers] {
        var dropped: [StackAnswers] = []
        while state.bytes > capacity, let oldest = state.stacks.min(by: { $0.value.lastUse < $1.value.lastUse }) {
            state.bytes -= oldest.value.bytes
            dropped.append(state.stacks.removeValue(forKey: oldest.key)!)
        }
        return dropped
    }

    /// What an answer kept under `key` counts: its body, its gzip encoding, and the key.
    private static func size(of response: HTTPResponse, key: String) -> Int {
        response.body.count + (response.gzipBody?.count ?? 0) + key.utf8.count
    }

    /// Forgets every answer kept for `entry`.
    func forget(_ entry: StackEntry) {
        // Returned, so that it is freed after the lock.
        _ = state.withLock { state -> StackAnswers? in
            guard let kept = state.stacks.removeValue(forKey: ObjectIdentifier(entry)) else { return nil }
            state.bytes -= kept.bytes
            return kept
        }
    }

    /// The bytes of bodies (and keys) kept now.
    var bytesKept: Int { state.withLock { $0.bytes } }
}
