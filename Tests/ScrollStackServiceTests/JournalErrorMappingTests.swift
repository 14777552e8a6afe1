@testable import ScrollStackService
import ScrollStackStore
import XCTest

/// The store's refusals as the client sees them, and the typed conflict the write path's
/// retries test: only a conflict the store reported is one, whatever an answer's code says.
final class JournalErrorMappingTests: XCTestCase {
    func testEachJournalErrorMapsToItsAnswerAndOnlyAConflictIsRetried() {
        let conflict = APIError(JournalError.conflict(key: "feed", latest: 7))
        XCTAssertEqual([conflict.status, conflict.revision], [409, 7])
        XCTAssertEqual(conflict.code, "revision_conflict")
        XCTAssertTrue(conflict.isRevisionConflict)
        XCTAssertTrue(APIError(JournalError.conflict(key: "feed", latest: nil)).isRevisionConflict)

        let unavailable = APIError(JournalError.unavailable("connection refused"))
        XCTAssertEqual(unavailable.status, 503)
        XCTAssertEqual(unavailable.code, "storage_unavailable")
        XCTAssertTrue(unavailable.headers.contains { $0.name == "Retry-After" })
        XCTAssertFalse(unavailable.isRevisionConflict)

        XCTAssertFalse(APIError(JournalError.failed("disk full")).isRevisionConflict)
        let damaged = APIError(JournalError.damaged(key: "feed", detail: "page 3 unreadable"))
        XCTAssertEqual([damaged.status], [503])
        XCTAssertEqual(damaged.code, "stack_unavailable")
        XCTAssertFalse(damaged.isRevisionConflict)

        // An answer that merely carries the code is not a conflict the store reported.
        XCTAssertFalse(APIError(status: 409, code: "revision_conflict", message: "spelled by hand").isRevisionConflict)
    }
}
