import JSONCodec
import ScrollStackCore
import ScrollStackStore
import ScrollStackTransitions

extension StackService {
    /// Whether a change whose answer does not carry its plan journals a `PlanRecipe` instead
    /// of the plan: every operation but `update` (journaled as the `setRow` it made, which
    /// need not report the same changes) and `revert` (rare, and its plan keeps the whole stack).
    static func derivesPlan(of operation: StackOperation) -> Bool {
        switch operation {
        case .update, .revert, .replaceWhole: false
        default: true
        }
    }

    /// The plan of `revision` (2…current) of stack `id` computed again from the journal as
    /// `recipe` says: the state at `revision` − 1 rebuilt, captured with the recipe's
    /// targets, the journaled operation of `revision` applied to it, and the plan built. Its
    /// encoding is the one a plan kept whole would have read back (`ModelEncoding.plan`).
    ///
    /// - Throws: 503 `storage_unavailable` when the journal does not give back that revision.
    /// - Complexity: O(snapshot + records since it) to rebuild the state, then the plan's own.
    func derivedPlan(_ id: String, revision: Int, current: Int, recipe: PlanRecipe, journal: StackJournal) throws(APIError) -> TransitionPlan {
        var stack = try self.stack(id, at: revision - 1, current: current, field: "revision")
        let record: JournalRecord?
        do throws(JournalError) { record = try journal.record(id: id, revision: revision) } catch { throw APIError(error) }
        let what = "revision \(revision) of \(id)"
        guard let record else { throw .journalUnreadable("\(what) is not in the journal") }
        let operation = try OperationRecord.decodeStack(record.operation, what: what, measurer: measurer, titleMeasurer: titleMeasurer)
        let capture = TransitionCapture(stack, targets: recipe.targets)
        let result: OperationResult
        do throws(StackError) { result = try operation.apply(to: &stack) } catch {
            throw .journalUnreadable("replaying \(what) failed: \(APIError(error).message)")
        }
        return TransitionPlanner.plan(from: capture, to: stack, result: result, timing: recipe.timing, animated: recipe.animated)
    }
}
