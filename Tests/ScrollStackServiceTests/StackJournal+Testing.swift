import SQLite
@testable import ScrollStackStore

/// The SQLite file under a test's journal, to inspect it or make it fail.
extension StackJournal {
    var sqlite: SQLiteJournal { backend as! SQLiteJournal }
    var database: SQLiteDatabase { sqlite.database }
    var committer: GroupCommit { sqlite.committer }
}
