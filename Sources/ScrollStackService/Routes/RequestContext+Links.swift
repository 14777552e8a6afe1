extension RequestContext {
    /// This request's path and query with the parameter `name` set to `value` (added when
    /// absent): the `next` link of a page. Values are percent-encoded again.
    func link(replacing name: String, with value: String) -> String {
        var query = request.query
        if let i = query.firstIndex(where: { $0.name == name }) {
            query[i].value = value
        } else {
            query.append((name, value))
        }
        return request.rawPath + "?" + query.map { Self.encode($0.name) + "=" + Self.encode($0.value) }.joined(separator: "&")
    }

    /// Percent-encodes everything but RFC 3986's unreserved characters and `,`.
    static func encode(_ text: String) -> String {
        var result = ""
        for byte in text.utf8 {
            let c = Character(Unicode.Scalar(byte))
            if c.isASCII && (c.isLetter || c.isNumber || "-._~,".contains(c)) {
                result.append(c)
            } else {
                let hex = String(byte, radix: 16, uppercase: true)
                result += "%" + (hex.count == 1 ? "0" + hex : hex)
            }
        }
        return result
    }
}
