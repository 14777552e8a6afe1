import CPostgres

extension PostgresConnection {
    /// Runs `statements` in order as one pipeline (libpq's pipeline mode): all are sent at
    /// once and their results read back after, so n statements cost one round trip instead
    /// of n. They run in one transaction, the implicit one the pipeline's sync point ends:
    /// committed at the sync when every statement succeeded, rolled back otherwise. Returns
    /// each statement's rows, in order, once the transaction is committed.
    ///
    /// - Throws: the first statement's error (those after it did not run, and nothing of the
    ///   transaction is kept), or the commit's. A connection that broke meanwhile throws
    ///   `.connection` and is left for `reset()` (`isConnected` is false).
    /// - Complexity: one round trip; O(size of the parameters and rows).
    public func transactionPipeline(_ statements: [(sql: String, parameters: [PostgresValue])]) throws(PostgresError) -> [[[PostgresValue]]] {
        guard PQenterPipelineMode(rawHandle) == 1 else { throw PostgresError(kind: .connection, message: lastMessage) }
        for (sql, parameters) in statements {
            let sent = Self.withBinary(parameters) { count, types, values, lengths, formats in
                PQsendQueryParams(rawHandle, sql, count, types, values, lengths, formats, 1)
            }
            guard sent == 1 else { throw PostgresError(kind: .connection, message: lastMessage) }
        }
        guard PQpipelineSync(rawHandle) == 1 else { throw PostgresError(kind: .connection, message: lastMessage) }
        var answers: [[[PostgresValue]]] = []
        var failure: PostgresError?
        // Each statement's results end with NULL; the sync's is PGRES_PIPELINE_SYNC.
        for _ in statements {
            var rows: [[PostgresValue]] = []
            while let result = PQgetResult(rawHandle) {
                defer { PQclear(result) }
                switch PQresultStatus(result) {
                case PGRES_PIPELINE_ABORTED:
                    continue
                case PGRES_TUPLES_OK:
                    do throws(PostgresError) { rows = try self.rows(of: result) } catch { failure = failure ?? error }
                default:
                    do throws(PostgresError) { try check(result) } catch { failure = failure ?? error }
                }
            }
            answers.append(rows)
            if PQstatus(rawHandle) != CONNECTION_OK { throw failure ?? PostgresError(kind: .connection, message: lastMessage) }
        }
        guard let sync = PQgetResult(rawHandle) else { throw failure ?? PostgresError(kind: .connection, message: lastMessage) }
        let synced = PQresultStatus(sync) == PGRES_PIPELINE_SYNC
        // The commit's own error, if it failed, comes in the sync's place.
        if !synced { do throws(PostgresError) { try check(sync) } catch { failure = failure ?? error } }
        PQclear(sync)
        guard synced, PQexitPipelineMode(rawHandle) == 1 else { throw failure ?? PostgresError(kind: .connection, message: lastMessage) }
        if let failure { throw failure }
        return answers
    }
}
