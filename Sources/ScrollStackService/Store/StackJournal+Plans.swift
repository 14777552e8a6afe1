import SQLite

extension StackJournal {
    /// The transition plan kept with the mutation that made `revision`, or nil.
    func plan(id: String, revision: Int) throws(SQLiteError) -> [UInt8]? {
        let rows = try database.query("SELECT plan FROM plans WHERE stack = ? AND revision = ?", [.text(id), .integer(Int64(revision))])
        guard case .blob(let plan)? = rows.first?.first else { return nil }
        return plan
    }
}
