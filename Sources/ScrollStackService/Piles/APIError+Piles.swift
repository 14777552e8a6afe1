import ScrollStackPiles
import ScrollStackTransitions

extension APIError {
    static func pileNotFound(_ id: String) -> APIError {
        APIError(.pileNotFound, message: "no pile has the id \"\(id)\"")
    }

    /// 409 `duplicate_id`: the id is taken by another pile (on any replica).
    static func duplicatePile(_ id: String) -> APIError {
        APIError(.duplicateID, message: "a pile with the id \"\(id)\" already exists", field: "id")
    }

    /// The HTTP view of a pile operation's refusal: an empty pile or its last view is a
    /// conflict with the pile's state (409), a view named in the body that is not there 422.
    init(_ error: PileError) {
        switch error.kind {
        case .empty: self.init(.pileEmpty, message: error.message, field: error.field)
        case .lastView: self.init(.pileLastView, message: error.message, field: error.field)
        case .duplicateID: self.init(.duplicateID, message: error.message, field: error.field)
        case .unknownView: self.init(.unknownView, message: error.message, field: error.field)
        }
    }
}
