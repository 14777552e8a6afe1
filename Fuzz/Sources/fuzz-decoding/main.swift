// The service's request decoders on any JSON value: none may crash, and every error they
// throw is a 4xx naming a field of the input (a missing member: its container), or null
// where no single input is at fault.
import FuzzSupport
import JSONCodec
import ScrollStackCore
@testable import ScrollStackService

enum Harness {
    /// One service for the whole run: `decodeStack` reads only its limits.
    static let service = StackService(journal: nil)
}

/// Checks one decoder's failure against the input it read.
func check(_ error: APIError, in root: JSON, decoder: String) {
    Fuzzer.require((400..<500).contains(error.status), "\(decoder): status \(error.status) (\(error.code.rawValue): \(error.message))")
    // `null` is for errors no single input is at fault for (API.md, Field paths): a
    // combination of members, a model rule over several rows.
    guard let field = error.field else {
        Fuzzer.require(error.code == .invalidValue || error.code == .duplicateID, "\(decoder): \(error.code.rawValue) names no field: \(error.message)")
        return
    }
    switch error.code {
    case .wrongType, .unknownField, .nestingTooDeep:
        Fuzzer.require(FieldPath.resolve(field, in: root) != nil, "\(decoder): \(error.code.rawValue) names \"\(field)\", which is not in the input")
    case .missingField:
        Fuzzer.require(FieldPath.resolve(FieldPath.parent(field), in: root) != nil, "\(decoder): missing \"\(field)\" in nothing of the input")
    default:
        break  // model rules may name a member left at its default: named, not necessarily present
    }
}

/// Runs `decode`, checking its failure.
func attempt<T>(_ decoder: String, _ root: JSON, _ decode: () throws(APIError) -> T) -> T? {
    do {
        return try decode()
    } catch {
        check(error, in: root, decoder: decoder)
        return nil
    }
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzDecoding(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    guard let root = try? JSON.parse(Fuzzer.bytes(data, size)) else { return 0 }
    let field = Field(root, path: "")
    var counter = 0
    if let stack = attempt("stack", root, { () throws(APIError) in try Harness.service.decodeStack(field.object(), id: "s") }) {
        stack.checkInvariants()
    }
    _ = attempt("settings", root, { () throws(APIError) in try ModelDecoding.settings(field.object(), base: StackSettings()) })
    _ = attempt("row", root, { () throws(APIError) in
        try ModelDecoding.row(field, maxDepth: ServiceLimits.defaultMaxJSONDepth, maxTitle: ServiceLimits().maxTitleCharacters, defaults: StackSettings()) { counter += 1; return "r\(counter)" }
    })
    _ = attempt("location", root, { () throws(APIError) in try ModelDecoding.location(field) })
    _ = attempt("reference", root, { () throws(APIError) in try ModelDecoding.reference(field) })
    _ = attempt("scrollTarget", root, { () throws(APIError) in
        // A page (along or across) resolves against a stack's stops; here any integer is stop 0.
        try ModelDecoding.scrollTarget(field.object(), currentOffset: Point(x: 0, y: 0)) { along, across throws(APIError) in
            _ = try along?.int()
            _ = try across?.int()
            return Point(x: 0, y: 0)
        }
    })
    _ = attempt("contentDescription", root, { () throws(APIError) in try ModelDecoding.contentDescription(field) })
    return 0
}

Fuzzer.run(fuzzDecoding)
