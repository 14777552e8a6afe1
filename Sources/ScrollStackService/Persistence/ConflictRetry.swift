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
