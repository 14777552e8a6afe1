extension APIError {
    static func journalUnreadable(_ detail: String) -> APIError {
        APIError(.storageUnavailable, message: "the journal could not be read back: \(detail)")
    }

    /// 503 for a stack that is in the journal but cannot be served: start-up could not
    /// rebuild it, or its journal was found damaged (at start or since). No Retry-After:
    /// it stays so until the journal is repaired and the server restarted, or it is deleted.
    static func stackUnavailable(_ id: String, reason: String) -> APIError {
        APIError(.stackUnavailable,
                 message: "the stack \"\(id)\" is in the journal but cannot be served (\(reason)); it is kept as it is on disk, and DELETE removes it")
    }

    static func duplicateStack(_ id: String, unreadable reason: String) -> APIError {
        APIError(.duplicateID,
                 message: "a stack with the id \"\(id)\" is in the journal but could not be rebuilt at start (\(reason)); DELETE it to reuse the id", field: "id")
    }

    static func nestingTooDeep(_ field: String, depth: Int, limit: Int) -> APIError {
        APIError(.nestingTooDeep,
                 message: "nests \(depth) arrays and objects deep; at most \(limit) are accepted (--max-json-depth)", field: field)
    }

    /// A request that would cost more work (CPU, memory or answer bytes) than one request
    /// may: 422 `work_budget_exceeded`, naming the field that multiplies it, refused before
    /// the work is done.
    static func workBudgetExceeded(_ field: String, _ message: String) -> APIError {
        APIError(.workBudgetExceeded, message: message, field: field)
    }
}
