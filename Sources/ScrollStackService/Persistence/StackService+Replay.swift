import JSONCodec
import Logging
import ScrollStackCore
import ScrollStackStore
import ScrollStackText
import ScrollStackPiles
import ScrollStackTransitions

extension StackService {
    /// A stack rebuilt from its journal.
    struct Replayed {
        var stack: ScrollStack
        var revision: Int
    }

    /// Rebuilds a stored stack: its snapshot, binary (`SnapshotFormat`) or format 1 JSON
    /// (decoded like a create body, by a scratch service that journals nothing), then the
    /// operation of each record after it applied to the model.
    ///
    /// - Throws: `journalUnreadable` naming the snapshot or the revision that fails (a record
    ///   of a kind other than a stack operation among them).
    /// - Complexity: O(snapshot size + the records' model operations); no JSON for a binary
    ///   snapshot.
    static func rebuild(_ stored: StoredJournal, logger: Logger, measurer: any ContentMeasuring, titleMeasurer: (any TitleMeasuring)?,
                        fonts: FontCatalog) throws(APIError) -> Replayed {
        let what = "the snapshot of \(stored.key) at revision \(stored.snapshotRevision)"
        var state: ScrollStack
        if SnapshotFormat.isBinary(stored.snapshot) {
            state = try SnapshotFormat.decode(stored.snapshot, what: what, measurer: measurer, titleMeasurer: titleMeasurer)
        } else {
            let json: JSON
            do { json = try JSON.parse(stored.snapshot) } catch { throw .journalUnreadable("\(what) does not parse: \(error)") }
            guard let object = json.objectValue else { throw .journalUnreadable("\(what) is not an object") }
            let scratch = StackService(logger: logger, journalOrNone: nil, limits: .replay, measurer: measurer, titleMeasurer: titleMeasurer,
                                       fonts: fonts)
            state = try scratch.decodeStack(ObjectReader(object: object, path: ""), id: stored.key)
        }
        var revision = stored.snapshotRevision
        for record in stored.records {
            let what = "revision \(record.revision) of \(stored.key)"
            guard record.revision == revision + 1 else { throw .journalUnreadable("\(what) follows revision \(revision)") }
            let decoded = try OperationRecord.decodeStack(record.operation, what: what, measurer: measurer, titleMeasurer: titleMeasurer)
            do throws(StackError) { _ = try decoded.apply(to: &state) } catch {
                throw .journalUnreadable("replaying \(what) failed: \(APIError(error).message)")
            }
            revision = record.revision
        }
        return Replayed(stack: state, revision: revision)
    }
}
