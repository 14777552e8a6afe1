/// The outcome of matching a method and a path against a router's routes.
public enum RouteMatch<Handler> {
    /// A route matched; `parameters` holds the segments its `{name}` placeholders captured.
    case found(Handler, parameters: [String: String])
    /// Some route matches the path, but none with this method; `allowed` is sorted.
    case methodNotAllowed(allowed: [String])
    /// No route matches the path.
    case notFound
}
