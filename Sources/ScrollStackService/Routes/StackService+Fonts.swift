import MicroHTTP

extension StackService {
    /// `GET /v1/fonts`: the families text nodes can use, their faces (weight, style) and aliases.
    func listFonts(_ c: RequestContext) throws(APIError) -> HTTPResponse {
        try c.allowQuery([])
        return .json(200, ModelEncoding.fonts(fonts))
    }
}
