import ScrollStackPiles
import ScrollStackTransitions

extension APIError {
    static func pileNotFound(_ id: String) -> APIError {
        APIError(status: 404, code: "pile_not_found", message: "no pile has the id \"\(id)\"")
    }

    /// 409 `duplicate_id`: the id is taken by another pile (on any replica).
    static func duplicatePile(_ id: String) -> APIError {
        APIError(status: 409, code: "duplicate_id", message: "a pile with the id \"\(id)\" already exists", field: "id")
    }

    /// The HTTP view of a pile operation's refusal: an empty pile or its last view is a
    /// conflict with the pile's state (409), a view named in the body that is not there 422.
    init(_ error: PileError) {
        switch error.kind {
        case .empty: self.init(status: 409, code: "pile_empty", message: error.message, field: error.field)
        case .lastView: self.init(status: 409, code: "pile_last_view", message: error.message, field: error.field)
        case .duplicateID: self.init(status: 409, code: "duplicate_id", message: error.message, field: error.field)
        case .unknownView: self.init(status: 422, code: "unknown_view", message: error.message, field: error.field)
        }
    }
}
