import MicroHTTP

extension StackService {
    static func addPileRoutes(to router: inout Router<Handler>) {}
}
