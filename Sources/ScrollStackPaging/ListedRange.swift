/// The part of a long list an answer lists: at most `limit` of `count` elements, around
/// element `around`, as many before it as after it where the ends allow (page dots around the
/// current page, menu items around the selected one). The whole list when it holds `limit`
/// or fewer. O(1).
public func listedRange(count: Int, around: Int, limit: Int) -> Range<Int> {
    let listed = Swift.min(Swift.max(count, 0), limit)
    let first = Swift.min(Swift.max(around - listed / 2, 0), count - listed)
    return first..<(first + listed)
}
