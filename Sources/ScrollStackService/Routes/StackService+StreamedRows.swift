import MicroHTTP
import ScrollStackCore

extension StackService {
    /// The whole rows list, or the rows whose controller has type `controllerType`, streamed
    /// (`ModelEncoding.rowsSource`) when the stack has at least `limits.streamedAnswerRows`
    /// rows; nil otherwise, and the list is answered whole.
    func streamedRows(_ stack: ScrollStack, revision: Int, controllerType: String?) -> HTTPResponse? {
        guard stack.count >= limits.streamedAnswerRows else { return nil }
        let matching: ((Row) -> Bool)? = controllerType.map { type in { $0.controller?.type == type } }
        return streamedJSON(ModelEncoding.rowsSource(revision: revision, stack, matching: matching), revision: revision)
    }
}
