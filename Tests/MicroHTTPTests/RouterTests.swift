import MicroHTTP
import XCTest

final class RouterTests: XCTestCase {
    func route(_ router: Router<String>, _ method: String, _ path: String) -> String {
        switch router.match(method: method, path: path) {
        case .found(let handler, let parameters):
            return handler + parameters.sorted { $0.key < $1.key }.map { " \($0.key)=\($0.value)" }.joined()
        case .methodNotAllowed(let allowed): return "405 " + allowed.joined(separator: ",")
        case .notFound: return "404"
        }
    }

    func testLiteralsBeatParametersAndMethodsAreChecked() {
        var router = Router<String>()
        router.add("GET", "/v1/stacks", "list")
        router.add("POST", "/v1/stacks", "create")
        router.add("GET", "/v1/stacks/{stack}/rows/{row}", "row")
        router.add("DELETE", "/v1/stacks/{stack}/rows/{row}", "remove")
        router.add("POST", "/v1/stacks/{stack}/rows/batch", "batch")
        router.add("GET", "/v1/stacks/{stack}/rows/at/{index}", "at")
        XCTAssertEqual(route(router, "GET", "/v1/stacks"), "list")
        XCTAssertEqual(route(router, "GET", "/v1/stacks/"), "list", "a trailing slash is ignored")
        XCTAssertEqual(route(router, "PUT", "/v1/stacks"), "405 GET,HEAD,POST")
        XCTAssertEqual(route(router, "HEAD", "/v1/stacks"), "list", "HEAD is served by the GET route")
        XCTAssertEqual(route(router, "POST", "/v1/stacks/s/rows/batch"), "batch stack=s")
        XCTAssertEqual(route(router, "GET", "/v1/stacks/s/rows/batch"), "row row=batch stack=s", "no GET on the literal: the parameter route")
        XCTAssertEqual(route(router, "GET", "/v1/stacks/s/rows/at/3"), "at index=3 stack=s")
        XCTAssertEqual(route(router, "GET", "/v1/stacks/s/rows/at"), "row row=at stack=s")
        XCTAssertEqual(route(router, "PATCH", "/v1/stacks/s/rows/x"), "405 DELETE,GET,HEAD")
        XCTAssertEqual(route(router, "GET", "/v2/stacks"), "404")
        XCTAssertEqual(route(router, "GET", "/v1/stacks/s/rows/x/extra"), "404")
    }
}
