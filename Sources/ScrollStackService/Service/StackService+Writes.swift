import Dispatch
import JSONCodec
import MicroHTTP
import ScrollStackCore
import ScrollStackStore
import ScrollStackTransitions

// The write path of a stack: every request that changes one comes through `mutate`, in this
// order: look the entry up, take its write lock, check the request against the state
// (`If-Match`, the path's row), apply the model operation and plan its transition, commit
// (the revision and its journal record), write the answer, release the lock, and answer once
// the record is durable. A revision conflict runs it all again (`ConflictRetry`).

extension StackService {
    /// Applies one model operation to the stack a request names and answers with the
    /// mutation result (revision, changed rows, removed rows, events). An `If-Match` that
    /// does not name the current revision gets 412 and changes nothing; it is judged once the
    /// path's target is found, so an unknown row in the path is 404 (RFC 9110 §13.2.1).
    ///
    /// `operation` decodes the rest of the request against the current state (for example
    /// to merge a PATCH or generate row ids) into the one model operation this applies.
    ///
    /// Every change gets a transition plan, from a capture of the stack taken just before
    /// it: `targets` names the rows the change will touch (nil: the capture keeps the whole
    /// stack, see `TransitionCapture`). The answer carries the plan when `animation` asks;
    /// otherwise, for most operations (`derivesPlan`), only what computes it is journaled
    /// (`PlanRecipe`) and the plan is computed when read.
    ///
    /// The operation is journaled (`OperationRecord`; replaying it rebuilds the state) with
    /// the events it answers with and its plan, durably, before the answer is sent (pipelined:
    /// after the stack's lock is released, see `StackEntry.write`; deferred, without holding
    /// a server thread meanwhile: `answerWhenDurable`). `extra` writes members of its own
    /// after the answer's events, from the stack after the operation, under its lock. With
    /// `Prefer: return=minimal` the answer is only `{"id", "revision"}` (`HTTPResponse.minimal`):
    /// no rows, events, plan nor `extra`. A caller that changes the answer must pass
    /// `deferrable: false` (a deferred answer is only a placeholder when returned).
    ///
    /// Replicas: another one may journal the same revision first (the journal's 409
    /// `revision_conflict`); the change is then tried again on the new state, where an
    /// `If-Match` naming the revision the client saw answers 412. The first try is built on
    /// the cached stack without asking the journal where it stands (`entryForWriting`): an
    /// error it answers is judged again on a checked one.
    func mutate(_ context: RequestContext, snapshot: Bool = false, animation: AnimationRequest = AnimationRequest(),
                targets: ((ScrollStack) throws(APIError) -> [String])? = nil, extra: ((ScrollStack, inout JSONWriter) -> Void)? = nil,
                deferrable: Bool = true,
                _ operation: (ScrollStack, _ revision: Int) throws(APIError) -> StackOperation) throws(APIError) -> HTTPResponse {
        let id = context.parameter("stack")
        // A planned change of a stack that hosts re-measure answers their plans too: now.
        let plansHosts = animation.answersPlan && !embeddings.hosts(of: id).isEmpty
        let context = deferrable && !plansHosts ? context : context.answeringNow
        let written = try write(context, snapshot: snapshot, animation: animation, targets: targets, extra: extra, keepsPlan: false, operation)
        // The answer (written now: `plansHosts`) ends with the hosts' plans as its last member.
        let response = written.response
        guard !written.hosts.isEmpty, response.status == 200, !context.prefersMinimal, response.body.last == UInt8(ascii: "}") else { return response }
        var w = JSONWriter()
        w.beginArray()
        for host in written.hosts { host.write(into: &w) }
        w.endArray()
        let member = Array(#","hostTransitions":"#.utf8) + w.take()
        return HTTPResponse(status: response.status, headers: response.headers, body: response.body.dropLast() + member + [UInt8(ascii: "}")])
    }

    /// A host's fit rows re-measured after a write to a stack they embed (`refreshHosts`):
    /// the host, the revision the refresh made and its plan, as JSON text.
    struct HostTransition {
        var stack: String
        var revision: Int
        var transition: [UInt8]

        /// `{"stack", "revision", "transition"}`, a member of `hostTransitions`.
        func write(into w: inout JSONWriter) {
            w.beginObject()
            w.key(ascii: "stack")
            w.string(stack)
            w.key(ascii: "revision")
            w.integer(Int64(revision))
            w.key(ascii: "transition")
            w.json(transition)
            w.endObject()
        }
    }

    /// `mutate`'s write, tried again on a revision conflict, then its hosts refreshed: the
    /// answer, the write's own plan when `keepsPlan` (a host's refresh; nil when another
    /// replica made the write, nothing was planned or the answer is minimal) and the plans of
    /// the hosts it refreshed, theirs included.
    private func write(_ context: RequestContext, snapshot: Bool, animation: AnimationRequest,
                       targets: ((ScrollStack) throws(APIError) -> [String])?, extra: ((ScrollStack, inout JSONWriter) -> Void)?,
                       keepsPlan: Bool,
                       _ operation: (ScrollStack, _ revision: Int) throws(APIError) -> StackOperation) throws(APIError)
        -> (response: HTTPResponse, plan: HostTransition?, hosts: [HostTransition]) {
        let id = context.parameter("stack")
        var madeByOwner = false
        let (response, plan) = try ConflictRetry.run(checksFirstRefusal: isReplicated) { attempt throws(APIError) -> (HTTPResponse, HostTransition?) in
            if attempt > 0 {
                // Lost a race: the stack is contended; its owner, if another replica, makes it
                // (and refreshes its hosts).
                noteConflict(id)
                if let forwarded = forwardedRetry(context.request, id: id) {
                    madeByOwner = true
                    return (forwarded, nil)
                }
            }
            return try mutateOnce(context, checked: attempt > 0, snapshot: snapshot, animation: animation, targets: targets, extra: extra,
                                  keepsPlan: keepsPlan, operation)
        }
        if madeByOwner { return (response, nil, []) }
        return (response, plan, refreshHosts(of: id, animation: animation))
    }

    /// The nested rows of each row of `kept` that embeds a stack of `host`
    /// (`EmbeddedLayouts.nestedRows(of:host:)`, `writePlan`'s `nested`); nil when `host`
    /// embeds none.
    func nestedPlanRows(_ kept: TransitionPlan, host: ScrollStack) -> [JSON?]? {
        guard !host.embeddedStacks.isEmpty else { return nil }
        return EmbeddedLayouts(depth: 1, visibleOnly: true) { [store] id in try? store.entry(id) }.nestedRows(of: kept, host: host)
    }

    /// After a write to stack `id`: each host with fit rows embedding it whose length the
    /// write changed gets them re-measured by a `reload` of those rows, a write of its own
    /// (journaled, with its `rowResized` events, planned with `animation`), which in turn
    /// refreshes its own hosts; the graph has no cycle, so this ends. When `animation` asks
    /// for plans, answers each refreshed host's `{stack, revision, transition}`, hosts'
    /// hosts included. O(1) for a stack no fit row embeds; otherwise, per host, O(n) to find
    /// the rows and a measure of each.
    func refreshHosts(of id: String, animation: AnimationRequest = AnimationRequest()) -> [HostTransition] {
        var plans: [HostTransition] = []
        for host in embeddings.hosts(of: id) {
            guard let entry = try? store.entry(host),
                  let stale = try? entry.read({ stack, _ throws(APIError) in stack.staleFitRows(embedding: id) }), !stale.isEmpty else { continue }
            // Made here, never forwarded: a host is refreshed by the replica that wrote its guest.
            let request = HTTPRequest(method: "POST", path: "/v1/stacks/\(host)/rows/batch", headers: [(WriteOwners.forwardedHeader, "here")])
            let context = RequestContext(request: request, parameters: ["stack": host]).answeringNow
            let refreshed = try? write(context, snapshot: false, animation: animation, targets: nil, extra: nil,
                                       keepsPlan: animation.answersPlan) { stack, _ throws(APIError) in
                .reload(stack.staleFitRows(embedding: id).map { RowReference.index($0) })
            }
            guard let refreshed, refreshed.response.status == 200 else {
                logger.warning("the fit rows of \(host) embedding \(id) were not re-measured (the next write to \(id) retries)")
                continue
            }
            if let plan = refreshed.plan { plans.append(plan) }
            plans += refreshed.hosts
        }
        return plans
    }

    /// One attempt of a write (`write` retries it): under the stack's write lock, the request
    /// is checked against the state, applied and planned (`applied`), committed as the next
    /// revision with its journal record (`journalMutation`) and answered (`mutationAnswer`);
    /// the answer is sent once the record is durable (`answerWhenDurable`). Also returns the
    /// write's own plan when `keepsPlan`.
    private func mutateOnce(_ context: RequestContext, checked: Bool, snapshot: Bool, animation: AnimationRequest,
                            targets: ((ScrollStack) throws(APIError) -> [String])?, extra: ((ScrollStack, inout JSONWriter) -> Void)?,
                            keepsPlan: Bool,
                            _ operation: (ScrollStack, _ revision: Int) throws(APIError) -> StackOperation) throws(APIError)
        -> (HTTPResponse, HostTransition?) {
        let (entry, incarnation) = try store.entryForWriting(context.parameter("stack"), checked: checked)
        let recover = { [weak self] () throws(APIError) -> (ScrollStack, Int) in
            guard let self else { throw APIError.storageFailed("the service is gone") }
            answers.forget(entry)
            return try journaledState(of: entry)
        }
        let (outcome, pending) = try entry.write(recover: recover) {
            (stack: inout ScrollStack, w: inout StackEntry.Write) throws(APIError) -> MutationAnswer in
            answers.forget(entry)
            // The path's row first: an unknown one is 404 whatever If-Match says (RFC 9110 §13.2.1).
            if context.parameters["row"] != nil || context.parameters["index"] != nil { _ = try pathRow(context, in: stack) }
            try context.checkIfMatch(w.revision)
            let named = try targets?(stack)
            let operation = try operation(stack, w.revision)
            let embeds = try admitEmbeddings(operation, host: entry.id, in: stack)
            let planned: Planned
            do {
                // Whatever happens, the graph ends with what the rows embed. When that changes,
                // the streams following this stack's tree (its own, and those relaying it) end:
                // their clients reconnect and follow the new tree.
                defer { if embeds && embeddings.set(host: entry.id, to: stack.embeddedStacks) { hub.closeAll(entry.id) } }
                planned = try applied(operation, to: &stack, animation: animation, targets: named)
            }
            let after = w.inFlight
            try w.commit { revision in
                journalMutation(entry.id, planned.operation, planned.result, stack, revision, forceSnapshot: snapshot,
                                plan: planned.recipe?.encoded ?? planned.plan.map { ModelEncoding.planText($0, revision: revision, realPrecision: 17) },
                                after: after, incarnation: incarnation, replayCost: planned.replayCost)
            }
            return mutationAnswer(planned, stack, w.revision, id: entry.id, context, animation: animation, keepsPlan: keepsPlan, extra: extra)
        }
        let plan = if case .success(.response(_, let plan)) = outcome { plan } else { HostTransition?.none }
        return (try answerWhenDurable(context, entry, outcome.map { $0.response }, pending), plan)
    }

    /// Applies `operation` to `stack` and plans its transition from a capture of the rows
    /// `targets` names (nil: the whole stack, `TransitionCapture`). A plan nobody sees now
    /// (`derivesPlan`, no animation asked) is kept as the `PlanRecipe` that computes it when
    /// read. With keyframes asked (`fps`) the change is made on a copy first, so that a plan
    /// too big to sample (`AnimationRequest.maxRowSamples`) is refused with the stack unchanged.
    private func applied(_ operation: StackOperation, to stack: inout ScrollStack, animation: AnimationRequest,
                         targets: [String]?) throws(APIError) -> Planned {
        let (timing, animated) = (animation.timing(for: operation, in: stack), animation.timing != nil)
        if !animation.answersPlan, Self.derivesPlan(of: operation) {
            let (result, cost) = try timedApply(operation, to: &stack)
            return Planned(result: result, plan: nil, operation: operation.journaled(after: stack),
                           recipe: PlanRecipe(animated: animated, timing: timing, targets: targets), replayCost: cost)
        }
        let capture = TransitionCapture(stack, targets: targets)
        guard let fps = animation.fps else {
            let (result, cost) = try timedApply(operation, to: &stack)
            let plan = TransitionPlanner.plan(from: capture, to: stack, result: result, timing: timing, animated: animated)
            return Planned(result: result, plan: plan, operation: operation.journaled(after: stack), recipe: nil, replayCost: cost)
        }
        var after = stack
        let (result, cost) = try timedApply(operation, to: &after)
        let plan = TransitionPlanner.plan(from: capture, to: after, result: result, timing: timing, animated: animated)
        if let error = AnimationRequest.rowSampleViolation(plan, fps: fps) { throw error }
        stack = after
        return Planned(result: result, plan: plan, operation: operation.journaled(after: stack), recipe: nil, replayCost: cost)
    }

    /// The answer to a committed write (`stack` at `revision` is the new state): minimal with
    /// `Prefer: return=minimal`; the common answer (its plan too, when asked) as what it is
    /// written from once the lock is released (only the changed rows are taken now); a plan
    /// with nested rows (a host's), with keyframes or kept for the caller (`keepsPlan`), and
    /// `extra`'s members, written now, under the lock (keyframes are bounded by
    /// `AnimationRequest.maxRowSamples`; nested rows are read under the lock).
    private func mutationAnswer(_ planned: Planned, _ stack: ScrollStack, _ revision: Int, id: String, _ context: RequestContext,
                                animation: AnimationRequest, keepsPlan: Bool,
                                extra: ((ScrollStack, inout JSONWriter) -> Void)?) -> MutationAnswer {
        if context.prefersMinimal { return .response(.minimal(200, id: id, revision: revision)) }
        let result = planned.result
        if extra == nil, animation.fps == nil, !keepsPlan, !(animation.answersPlan && !stack.embeddedStacks.isEmpty) {
            return .text(revision: revision, result: result, changed: ModelEncoding.changedRows(result, in: stack),
                         transition: animation.answersPlan ? planned.plan : nil)
        }
        var w = JSONWriter(capacity: ModelEncoding.mutationCapacity(result, planRows: planned.plan?.rows.count ?? 0))
        ModelEncoding.writeMutationOpening(revision: revision, result, changed: ModelEncoding.changedRows(result, in: stack), into: &w)
        var kept: HostTransition?
        if animation.answersPlan, let plan = planned.plan {
            let nested = nestedPlanRows(plan, host: stack)
            w.key(ascii: "transition")
            if keepsPlan {
                // Written apart once, for the caller, and copied into the answer.
                var text = JSONWriter()
                ModelEncoding.writePlan(plan, revision: revision, nested: nested, fps: animation.fps, into: &text)
                kept = HostTransition(stack: id, revision: revision, transition: text.take())
                w.json(kept!.transition)
            } else {
                ModelEncoding.writePlan(plan, revision: revision, nested: nested, fps: animation.fps, into: &w)
            }
        }
        extra?(stack, &w)
        w.endObject()
        return .response(.json(200, text: w.take(), revision: revision), plan: kept)
    }

    /// Checks and reserves the embeddings `operation` adds to `host` (`Embeddings.admit`);
    /// true when the host's embeddings may change, so that the graph must be set after it.
    /// Replicas refuse embedding: their graph would know only this replica's writes.
    func admitEmbeddings(_ operation: StackOperation, host: String, in stack: ScrollStack) throws(APIError) -> Bool {
        let requests = operation.embeddingRequests
        if let first = requests.first, isReplicated {
            throw .invalid(first.field, "embedding a stack is not available with replicas (--store postgres://): their graph of embeddings is not shared yet")
        }
        try embeddings.admit(host: host, requests, exists: store.contains)
        return !requests.isEmpty || !stack.embeddedStacks.isEmpty
    }

    /// A mutation's answer as its body leaves the stack's lock: made, or still to be written
    /// from what was taken under the lock (the common answer, written after the lock is
    /// released so that other writers of the stack wait less).
    private enum MutationAnswer {
        /// Made; with the write's own plan when the caller keeps it (`HostTransition`).
        case response(HTTPResponse, plan: HostTransition? = nil)
        case text(revision: Int, result: OperationResult, changed: [(row: Row, index: Int)], transition: TransitionPlan?)

        var response: HTTPResponse {
            switch self {
            case .response(let response, _):
                return response
            case .text(let revision, let result, let changed, let transition):
                return .json(200, text: ModelEncoding.mutationText(revision: revision, result, changed: changed, transition: transition),
                             revision: revision)
            }
        }
    }

    /// What a mutation's body made, for its journal write and its answer.
    private struct Planned {
        var result: OperationResult
        /// The plan, when computed now (nil: the `recipe` computes it when read).
        var plan: TransitionPlan?
        var operation: StackOperation
        var recipe: PlanRecipe?
        /// Nanoseconds the model operation took to apply: what replaying it costs
        /// (`StackJournal.claimSnapshot`).
        var replayCost: UInt64
    }

    /// Applies `operation` to `stack`, timing it.
    private func timedApply(_ operation: StackOperation, to stack: inout ScrollStack) throws(APIError) -> (OperationResult, UInt64) {
        let started = DispatchTime.now().uptimeNanoseconds
        let result = try model { () throws(StackError) in try operation.apply(to: &stack) }
        return (result, DispatchTime.now().uptimeNanoseconds - started)
    }


    /// The bytes a snapshot is stored as (`SnapshotFormat`, exact: reading them back gives
    /// the same stack).
    static func snapshot(_ stack: ScrollStack) -> [UInt8] {
        SnapshotFormat.encode(stack)
    }

    /// Journals one mutation (its operation as `OperationRecord` encodes it) with `plan`, the
    /// bytes kept for its transition plan (JSON text, or a `PlanRecipe`), and its events, each
    /// stamped with the time now (`EventTime`), as history and live streams answer them.
    ///
    /// The record is queued and its pending write returned (nil without a journal); the caller
    /// answers once it is durable (503 if it fails). Only once durable are its events published
    /// to live streams (in revision order: one stack's records complete in order) and a due
    /// snapshot scheduled.
    ///
    /// `forceSnapshot` writes a snapshot of the result in the same transaction (a revert,
    /// which replays cannot re-run). A snapshot that is merely due is claimed now and
    /// scheduled once the mutation is durable, from a copy of the state taken now (O(1); the
    /// next write to the stack copies the pages it touches, `PagedColumn`), and encoded and written off
    /// the stack's lock. `after` is the write of the revision before, if still in flight;
    /// `incarnation`, on replicas, the one the stack's state was loaded as; `replayCost`, the
    /// nanoseconds the operation took to apply (snapshots come sooner after costly ones).
    func journalMutation(_ id: String, _ operation: StackOperation, _ result: OperationResult, _ stack: ScrollStack, _ revision: Int,
                         forceSnapshot: Bool = false, plan: [UInt8]? = nil, after: PendingWrite? = nil,
                         incarnation: Int64? = nil, replayCost: UInt64 = 0) -> PendingWrite? {
        guard let journal else { return nil }
        // When the revision was made: kept with its events, so every later read says the same.
        let time = EventTime.text(milliseconds: EventTime.nowMilliseconds())
        let events = ModelEncoding.eventsText(result.events, realPrecision: 17, time: time)
        let snapshot = forceSnapshot ? Self.snapshot(stack) : nil
        let record = JournalRecord(revision: revision, operation: OperationRecord.stack(operation), events: events, plan: plan)
        let due = !forceSnapshot && journal.claimSnapshot(id: id, revision: revision, rowCount: stack.count, replayCost: replayCost) ? stack : nil
        let (hub, logger) = (hub, logger)
        let durable: @Sendable () -> Void = {
            if let due {
                journal.recordSnapshotLater(id: id, revision: revision, encode: { Self.snapshot(due) },
                                            failed: { logger.warning("snapshot of \(id) at revision \(revision) not written (replays start from an older one): \($0)") })
            }
            hub.publish(revision: revision, events: { ModelEncoding.eventsText(result.events, realPrecision: 15, time: time) }, to: id)
        }
        let failed: @Sendable (JournalError) -> Void = { error in
            if due != nil { journal.dropSnapshotClaim(id: id) }
            // Between replicas a conflict is routine (the write is retried on the new state).
            if case .conflict = error {
                logger.notice("journal write for \(id) at revision \(revision) lost to another writer: \(error)")
            } else {
                logger.error("journal write failed for \(id) at revision \(revision): \(error)")
            }
        }
        let pending = journal.recordMutationLater(id: id, record: record, snapshot: snapshot, after: after, incarnation: incarnation)
        pending.whenDone { error in
            if let error { failed(error) } else { durable() }
        }
        return pending
    }

    /// The answer to a mutation applied and committed by `StackEntry.write`, given once
    /// its journal write is durable (or failed), without holding a server thread meanwhile
    /// where it can (Architecture.md, "Durable writes answered later").
    ///
    /// - No write in flight, or one already complete (an in-memory journal's): the outcome, now.
    /// - The request accepts a deferred answer (`HTTPRequest.acceptsDeferredResponse`): a
    ///   deferred answer, completed from `whenDone` on the committing thread (the journal
    ///   commits on a thread of its own) once the write is durable; that thread only hands
    ///   over the answer already encoded. A failed write (or an error judged on a state whose write
    ///   then failed, or a conflict) is settled off that thread, on a global queue, exactly
    ///   as a waiting thread would: the journal's state reloaded, then the error answered
    ///   (503, 500, …, the same bytes), or, for a revision conflict, the request handled
    ///   again from the start, answering now (`mutate` tries a conflict again the same way).
    ///   On a replica a 4xx is handled again the same way: it was judged on the cached
    ///   state, which another replica may have moved past (`mutate` judges it again).
    /// - Otherwise (`mutate(deferrable: false)`, a request handled again, a server that
    ///   does not defer answers): waits for the write on this thread.
    func answerWhenDurable(_ context: RequestContext, _ entry: StackEntry, _ outcome: Result<HTTPResponse, APIError>,
                           _ pending: PendingWrite?) throws(APIError) -> HTTPResponse {
        guard let pending else { return try outcome.get() }
        guard context.request.acceptsDeferredResponse, pending.outcome == nil else {
            return try entry.settle(outcome, pending.wait())
        }
        let later = DeferredResponse()
        let request = context.request
        pending.whenDone { [self] error in
            if error == nil, case .success(let response) = outcome {
                later.complete(response)
                return
            }
            if error == nil, case .failure(let failure) = outcome, !needsHandlingAgain(failure) {
                later.complete(.error(failure))
                return
            }
            // Settling may take the stack's lock and read the journal: not on the committing thread.
            DispatchQueue.global().async { [self] in
                later.complete(settledLater(request, entry, outcome, error))
            }
        }
        return .deferred(later)
    }

    /// Whether a write's error is only answered after the request is handled again: a revision
    /// conflict, and on a replica any 4xx, which may come of a cached state another replica
    /// had moved past (`mutate` judges it again on a checked state, as it does for a write
    /// answered now). Nothing was applied, so handling the request again is safe.
    private func needsHandlingAgain(_ error: APIError) -> Bool {
        error.isRevisionConflict || (error.status < 500 && isReplicated)
    }

    /// What a waiting thread would have answered after `error`: `settle`'s outcome, its error,
    /// or for a revision conflict (and on a replica, a 4xx) the request handled again, answering now.
    private func settledLater(_ request: HTTPRequest, _ entry: StackEntry, _ outcome: Result<HTTPResponse, APIError>,
                              _ error: JournalError?) -> HTTPResponse {
        do throws(APIError) {
            return try entry.settle(outcome, error)
        } catch where needsHandlingAgain(error) {
            if error.isRevisionConflict { noteConflict(entry.id) }
            var again = request
            again.acceptsDeferredResponse = false
            return handle(again)
        } catch {
            return .error(error)
        }
    }
}

extension RequestContext {
    /// The same request, told that its answer cannot be deferred.
    var answeringNow: RequestContext {
        var request = request
        request.acceptsDeferredResponse = false
        return RequestContext(request: request, parameters: parameters)
    }
}

/// The one policy for handling a request again after the store refused its write (or a read's
/// state went away): a typed revision conflict (`APIError.isRevisionConflict`) is tried again
/// on the new state, at most `limit` times; on a replica, a refusal of the first attempt (any
/// 4xx) is judged again once, since that attempt was built on a cached state without asking
/// the journal where it stands (Semantics.md, "Writes on a replica without a head read").
/// Nothing of a refused attempt was kept, so running it again is safe.
enum ConflictRetry {
    /// The most times a request is tried again after conflicts.
    static let limit = 32

    /// `attempt(n)` for n = 0, 1, … until it answers, or throws an error the policy does not
    /// retry (or a conflict past `limit`). `checksFirstRefusal`: the service is a replica whose
    /// first attempt is unchecked. The attempt number tells whether to check the state first
    /// (n > 0). O(attempts).
    static func run<T>(checksFirstRefusal: Bool, _ attempt: (_ number: Int) throws(APIError) -> T) throws(APIError) -> T {
        var number = 0
        while true {
            do {
                return try attempt(number)
            } catch where error.isRevisionConflict && number < limit {
                number += 1
            } catch where number == 0 && error.status < 500 && checksFirstRefusal {
                number += 1
            }
        }
    }
}
