import ScrollStackCore
@testable import ScrollStackPaging
import XCTest

/// Page sizes, stops, alignment and insets (Docs/Semantics.md, "Paging").
final class PageStopsTests: XCTestCase {
}
