/// The outcome of matching a method and a path against a `Router`'s routes.
public enum RouteMatch<Handler> {
    /// A route matched; `parameters` holds the segments its `{name}` parameters captured.
    case found(Handler, parameters: RouteParameters)
    /// Some route matches the path, but none with this method; `allowed` lists the methods
    /// that would match, sorted and unique (for an `Allow` header).
    case methodNotAllowed(allowed: [String])
    /// No route matches the path.
    case notFound
}
