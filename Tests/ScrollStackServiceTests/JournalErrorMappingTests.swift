@testable import ScrollStackService
import ScrollStackStore
import XCTest

/// The store's refusals as the client sees them, and the one retry policy (`ConflictRetry`)
/// on the typed conflict: only a conflict the store reported is one, whatever a code says.
final class JournalErrorMappingTests: XCTestCase {
    func testEachJournalErrorMapsToItsAnswerAndOnlyAConflictIsRetried() {
        let conflict = APIError(JournalError.conflict(key: "feed", latest: 7))
        XCTAssertEqual([conflict.status, conflict.revision], [409, 7])
        XCTAssertEqual(conflict.code, .revisionConflict)
        XCTAssertTrue(conflict.isRevisionConflict)
        XCTAssertTrue(APIError(JournalError.conflict(key: "feed", latest: nil)).isRevisionConflict)

        let unavailable = APIError(JournalError.unavailable("connection refused"))
        XCTAssertEqual(unavailable.status, 503)
        XCTAssertEqual(unavailable.code, .storageUnavailable)
        XCTAssertTrue(unavailable.headers.contains { $0.name == "Retry-After" })
        XCTAssertFalse(unavailable.isRevisionConflict)

        XCTAssertFalse(APIError(JournalError.failed("disk full")).isRevisionConflict)
        let damaged = APIError(JournalError.damaged(key: "feed", detail: "page 3 unreadable"))
        XCTAssertEqual([damaged.status], [503])
        XCTAssertEqual(damaged.code, .stackUnavailable)
        XCTAssertFalse(damaged.isRevisionConflict)

        // An answer that merely carries the code is not a conflict the store reported.
        XCTAssertFalse(APIError(.revisionConflict, message: "spelled by hand").isRevisionConflict)
    }

    func testConflictRetryTriesAConflictAgainUpToItsLimitAndAReplicasFirstRefusalOnce() {
        let conflict = APIError(JournalError.conflict(key: "feed", latest: 3))
        var tries = 0
        // Conflicts until the third attempt answers.
        XCTAssertEqual(try ConflictRetry.run(checksFirstRefusal: false) { number throws(APIError) -> Int in
            tries += 1
            if number < 2 { throw conflict }
            return number
        }, 2)
        XCTAssertEqual(tries, 3)
        // Always a conflict: the first attempt and `limit` more, then the conflict itself.
        tries = 0
        XCTAssertThrowsError(try ConflictRetry.run(checksFirstRefusal: true) { _ throws(APIError) -> Int in
            tries += 1
            throw conflict
        }) { XCTAssertTrue(($0 as? APIError)?.isRevisionConflict == true) }
        XCTAssertEqual(tries, ConflictRetry.limit + 1)
        // A 4xx of the first attempt is judged again on a replica only, and only once.
        let refused = APIError.invalid("rows", "no")
        for (replica, expected) in [(true, 2), (false, 1)] {
            tries = 0
            XCTAssertThrowsError(try ConflictRetry.run(checksFirstRefusal: replica) { _ throws(APIError) -> Int in
                tries += 1
                throw refused
            }) { XCTAssertEqual(($0 as? APIError)?.code, .invalidValue) }
            XCTAssertEqual(tries, expected, "replica \(replica)")
        }
        // A 5xx is never tried again.
        tries = 0
        XCTAssertThrowsError(try ConflictRetry.run(checksFirstRefusal: true) { _ throws(APIError) -> Int in
            tries += 1
            throw APIError(JournalError.unavailable("down"))
        })
        XCTAssertEqual(tries, 1)
    }
}
