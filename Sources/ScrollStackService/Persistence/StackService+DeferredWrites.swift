import Dispatch
import MicroHTTP
import ScrollStackStore

extension StackService {
    /// The answer to a mutation applied and queued by `StackEntry.writeQueued`, given once
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
