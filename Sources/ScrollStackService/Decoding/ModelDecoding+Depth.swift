import JSONCodec
import ScrollStackCore

extension ModelDecoding {
    /// A free-form value (`props`), kept as its exact text (reals with 17 digits).
    ///
    /// - Throws: 422 `nesting_too_deep` naming the field when it nests deeper than `maxDepth`.
    /// - Complexity: O(size of the value).
    static func freeForm(_ field: Field, maxDepth: Int) throws(APIError) -> String {
        try checkDepth(field, maxDepth: maxDepth)
        return String(decoding: field.value.serialized(realPrecision: 17), as: UTF8.self)
    }

    /// A content description whose JSON nests at most `maxDepth` deep (checked before its
    /// own limit of 64 nested nodes).
    static func contentDescription(_ field: Field, maxDepth: Int) throws(APIError) -> ContentDescription {
        try checkDepth(field, maxDepth: maxDepth)
        return try contentDescription(field)
    }

    /// Rejects a value nesting deeper than `maxDepth` arrays and objects, so that everything
    /// stored reads back (see `ServiceLimits.maxJSONDepthCeiling`).
    ///
    /// - Throws: 422 `nesting_too_deep` naming the field.
    static func checkDepth(_ field: Field, maxDepth: Int) throws(APIError) {
        let depth = field.value.nestingDepth
        guard depth <= maxDepth else { throw .nestingTooDeep(field.path, depth: depth, limit: maxDepth) }
    }
}
