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

    var api: Router<String> {
        var router = Router<String>()
        router.add("GET", "/v1/stacks", "list")
        router.add("POST", "/v1/stacks", "create")
        router.add("GET", "/v1/stacks/{stack}", "stack")
        router.add("DELETE", "/v1/stacks/{stack}", "delete")
        router.add("GET", "/v1/stacks/{stack}/rows/{row}", "row")
        router.add("DELETE", "/v1/stacks/{stack}/rows/{row}", "remove")
        router.add("PATCH", "/v1/stacks/{stack}/rows/{row}", "update")
        router.add("POST", "/v1/stacks/{stack}/rows/batch", "batch")
        router.add("GET", "/v1/stacks/{stack}/rows/at/{index}", "at")
        router.add("POST", "/v1/layout", "layout")
        router.add("GET", "/healthz", "health")
        router.add("get", "/", "root")
        return router
    }

    func testLiteralsAndParameters() {
        let router = api
        XCTAssertEqual(route(router, "GET", "/v1/stacks"), "list")
        XCTAssertEqual(route(router, "POST", "/v1/stacks"), "create")
        XCTAssertEqual(route(router, "GET", "/v1/stacks/s1"), "stack stack=s1")
        XCTAssertEqual(route(router, "GET", "/v1/stacks/a b/rows/r 1"), "row row=r 1 stack=a b", "segments as decoded")
        XCTAssertEqual(route(router, "GET", "/v1/stacks/s/rows/at/3"), "at index=3 stack=s")
        XCTAssertEqual(route(router, "GET", "/healthz"), "health")
        XCTAssertEqual(route(router, "GET", "/"), "root", "methods are upper-cased when added")
        XCTAssertEqual(route(router, "GET", ""), "root")
    }

    func testTheMostSpecificPatternOwnsThePathForEveryMethod() {
        let router = api
        XCTAssertEqual(route(router, "POST", "/v1/stacks/s/rows/batch"), "batch stack=s")
        XCTAssertEqual(route(router, "GET", "/v1/stacks/s/rows/batch"), "405 POST", "the literal route owns the path: no fallback to a row")
        XCTAssertEqual(route(router, "DELETE", "/v1/stacks/s/rows/batch"), "405 POST")
        XCTAssertEqual(route(router, "OPTIONS", "/v1/stacks/s/rows/batch"), "405 POST", "the batch route's own methods, not a row's")
        XCTAssertEqual(route(router, "GET", "/v1/stacks/s/rows/at"), "row row=at stack=s", "`at` with one segment fewer is a row")
        XCTAssertEqual(route(router, "PUT", "/v1/stacks/s/rows/r"), "405 DELETE,GET,HEAD,PATCH")
    }

    func testSegmentsAreDecodedOneByOneAfterSplitting() {
        let router = api
        XCTAssertEqual(route(router, "GET", "/v1/stacks/s/rows/a%2Fb"), "row row=a/b stack=s", "an encoded slash stays in its segment")
        XCTAssertEqual(route(router, "GET", "/v1/stacks/s/rows/a%2fb%2F"), "row row=a/b/ stack=s")
        XCTAssertEqual(route(router, "GET", "/v1/stacks/a%20b/rows/r%C3%A9%25"), "row row=ré% stack=a b")
        XCTAssertEqual(route(router, "GET", "/v1/stacks/s/rows/50%/x%zz%4"), "404", "three segments after rows: no route")
        XCTAssertEqual(route(router, "GET", "/v1/stacks/s/rows/50%x%zz%4"), "row row=50%x%zz%4 stack=s", "invalid escapes stay as written")
        XCTAssertEqual(route(router, "GET", "/v1/stacks/s/rows/a%00b"), "row row=a%00b stack=s", "%00 is never decoded")
        XCTAssertEqual(route(router, "GET", "/v1/stacks/s/rows/%FF"), "row row=\u{FFFD} stack=s", "invalid UTF-8 is repaired")
        XCTAssertEqual(route(router, "GET", "/v1/stacks/s/rows/%62atch"), "row row=batch stack=s", "an encoded literal is a parameter")
        XCTAssertEqual(route(router, "GET", "/v1/%73tacks"), "404", "literals match as written")
    }

    func testTheLeftmostDifferenceDecidesAndTiesGoToTheFirstAdded() {
        var router = Router<String>()
        router.add("GET", "/a/{x}/c", "param-then-literal")
        router.add("GET", "/{y}/b/c", "param-first")
        router.add("GET", "/a/b/{z}", "literals-first")
        router.add("GET", "/a/b/{other}", "same-shape-later")
        XCTAssertEqual(route(router, "GET", "/a/b/c"), "literals-first z=c")
        XCTAssertEqual(route(router, "GET", "/a/q/c"), "param-then-literal x=q")
        XCTAssertEqual(route(router, "GET", "/q/b/c"), "param-first y=q")
        XCTAssertEqual(route(router, "GET", "/q/b/d"), "404")
    }

    func testMethodNotAllowedListsSortedUniqueMethods() {
        var router = api
        router.add("GET", "/v1/stacks/{other}", "shadowed")
        XCTAssertEqual(route(router, "PUT", "/v1/stacks"), "405 GET,HEAD,POST")
        XCTAssertEqual(route(router, "POST", "/v1/stacks/s"), "405 DELETE,GET,HEAD", "GET once though two routes have it")
        XCTAssertEqual(route(router, "GET", "/v1/layout"), "405 POST", "no HEAD without GET")
        XCTAssertEqual(route(router, "get", "/v1/stacks"), "405 GET,HEAD,POST", "request methods are case-sensitive")
        XCTAssertEqual(route(router, "GET", "/v1/stacks/s"), "stack stack=s", "the first of equally specific routes")
    }

    func testHeadUsesTheGetRouteUnlessItHasItsOwn() {
        var router = api
        XCTAssertEqual(route(router, "HEAD", "/v1/stacks"), "list")
        XCTAssertEqual(route(router, "HEAD", "/v1/stacks/s/rows/batch"), "405 POST")
        XCTAssertEqual(route(router, "HEAD", "/v1/layout"), "405 POST")
        router.add("HEAD", "/v1/stacks/{stack}", "head")
        XCTAssertEqual(route(router, "HEAD", "/v1/stacks/s"), "head stack=s")
        XCTAssertEqual(route(router, "PUT", "/v1/stacks/s"), "405 DELETE,GET,HEAD")
    }

    func testNotFoundAndSlashes() {
        let router = api
        XCTAssertEqual(route(router, "GET", "/v2/stacks"), "404")
        XCTAssertEqual(route(router, "GET", "/v1/stacks/s/rows/x/extra"), "404")
        XCTAssertEqual(route(router, "GET", "/v1"), "404")
        XCTAssertEqual(route(router, "GET", "/v1/stacks/"), "list", "a trailing slash is ignored")
        XCTAssertEqual(route(router, "GET", "//v1//stacks//s1/"), "stack stack=s1", "so are empty segments")
        XCTAssertEqual(route(Router<String>(), "GET", "/"), "404", "no routes")
    }

    func testPatternsWithBracesInside() {
        var router = Router<Int>()
        router.add("GET", "/files/{name}", 1)
        router.add("GET", "/files/{}", 2)
        guard case .found(let handler, let parameters) = router.match(method: "GET", path: "/files/{}") else {
            return XCTFail("no match")
        }
        XCTAssertEqual(handler, 1, "`{}` is a parameter named \"\", no more specific than {name}")
        XCTAssertEqual(parameters, ["name": "{}"])
    }
}
