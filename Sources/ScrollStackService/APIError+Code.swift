extension APIError {
    /// Every error code the service answers with, each with the one status it is answered
    /// with. The raw value is the code as the answer writes it; the contract's `Error.code`
    /// lists exactly these (`APIErrorCodeTests`).
    public enum Code: String, Sendable, CaseIterable {
        // 400
        case badHeader = "bad_header"
        case badQueryParameter = "bad_query_parameter"
        case badRequest = "bad_request"
        case malformedJSON = "malformed_json"
        // 401
        case invalidToken = "invalid_token"
        case unauthorized
        // 403
        case insufficientScope = "insufficient_scope"
        case originNotAllowed = "origin_not_allowed"
        // 404
        case fontNotFound = "font_not_found"
        case pileNotFound = "pile_not_found"
        case revisionNotFound = "revision_not_found"
        case routeNotFound = "route_not_found"
        case rowNotFound = "row_not_found"
        case stackNotFound = "stack_not_found"
        case transitionNotFound = "transition_not_found"
        // 405
        case methodNotAllowed = "method_not_allowed"
        // 409
        case duplicateID = "duplicate_id"
        case fontDeletionUnsupported = "font_deletion_unsupported"
        case fontFaceExists = "font_face_exists"
        case fontFamilyReserved = "font_family_reserved"
        case fontInUse = "font_in_use"
        case fontLimitReached = "font_limit_reached"
        case noMenu = "no_menu"
        case pileEmpty = "pile_empty"
        case pileLastView = "pile_last_view"
        case revisionConflict = "revision_conflict"
        case stackEmbedded = "stack_embedded"
        // 412
        case preconditionFailed = "precondition_failed"
        // 413
        case payloadTooLarge = "payload_too_large"
        // 415
        case unsupportedMediaType = "unsupported_media_type"
        // 421
        case misdirectedRequest = "misdirected_request"
        // 422
        case embeddingCycle = "embedding_cycle"
        case emptyBatch = "empty_batch"
        case fontUnusable = "font_unusable"
        case indexOutOfRange = "index_out_of_range"
        case invalidValue = "invalid_value"
        case missingField = "missing_field"
        case nestingTooDeep = "nesting_too_deep"
        case unknownField = "unknown_field"
        case unknownRow = "unknown_row"
        case unknownView = "unknown_view"
        case workBudgetExceeded = "work_budget_exceeded"
        case wrongType = "wrong_type"
        // 500
        case internalError = "internal_error"
        // 501
        case notImplemented = "not_implemented"
        // 503
        case busy
        case stackUnavailable = "stack_unavailable"
        case storageUnavailable = "storage_unavailable"

        /// The HTTP status every error with this code is answered with.
        public var status: Int {
            switch self {
            case .badHeader, .badQueryParameter, .badRequest, .malformedJSON: 400
            case .invalidToken, .unauthorized: 401
            case .insufficientScope, .originNotAllowed: 403
            case .fontNotFound, .pileNotFound, .revisionNotFound, .routeNotFound, .rowNotFound, .stackNotFound, .transitionNotFound: 404
            case .methodNotAllowed: 405
            case .duplicateID, .fontDeletionUnsupported, .fontFaceExists, .fontFamilyReserved, .fontInUse, .fontLimitReached, .noMenu, .pileEmpty, .pileLastView, .revisionConflict, .stackEmbedded: 409
            case .preconditionFailed: 412
            case .payloadTooLarge: 413
            case .unsupportedMediaType: 415
            case .misdirectedRequest: 421
            case .embeddingCycle, .emptyBatch, .fontUnusable, .indexOutOfRange, .invalidValue, .missingField, .nestingTooDeep, .unknownField, .unknownRow, .unknownView, .workBudgetExceeded, .wrongType: 422
            case .internalError: 500
            case .notImplemented: 501
            case .busy, .stackUnavailable, .storageUnavailable: 503
            }
        }
    }
}
