import JSONCodec
import MicroHTTP
@testable import ScrollStackService
import XCTest

/// Every error code is spelled once, in `APIError.Code`, with its status: the contract lists
/// exactly those codes, and the HTTP layer's own refusals keep their status as the service's
/// codes.
final class APIErrorCodeTests: XCTestCase {
    func testTheContractListsExactlyTheServicesCodes() throws {
        let contract = try JSON.parse(Array(OpenAPIDocument.json.utf8))
        let listed = contract["components"]?["schemas"]?["Error"]?["properties"]?["error"]?["properties"]?["code"]?["enum"]?.arrayValue ?? []
        let listedCodes = Set(listed.compactMap(\.stringValue))
        XCTAssertEqual(listed.count, listedCodes.count, "the contract lists a code twice")
        let codes = Set(APIError.Code.allCases.map(\.rawValue))
        XCTAssertEqual(codes.subtracting(listedCodes).sorted(), [], "codes the service answers with that the contract does not list")
        XCTAssertEqual(listedCodes.subtracting(codes).sorted(), [], "codes the contract lists that the service never answers with")
    }

    func testEveryCodeHasAnErrorStatus() {
        for code in APIError.Code.allCases {
            XCTAssertTrue((400...599).contains(code.status), "\(code.rawValue): \(code.status)")
            XCTAssertEqual(APIError(code, message: "m").status, code.status)
        }
    }

    func testTheHTTPLayersRefusalsKeepTheirStatusAndCode() throws {
        let service = StackService()
        let request = HTTPRequest(method: "GET", path: "/")
        let failures = [HTTPError.badRequest("a NUL in the head"), .payloadTooLarge(limit: 10),
                        HTTPError(status: 501, code: "not_implemented", message: "gzip transfer coding")]
        for failure in failures {
            let response = service.respond(to: request, failure: failure)
            XCTAssertEqual(response.status, failure.status, failure.code)
            XCTAssertEqual(try JSON.parse(response.body)["error"]?["code"]?.stringValue, failure.code)
        }
    }
}
