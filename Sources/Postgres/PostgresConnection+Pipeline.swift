import CPostgres

extension PostgresConnection {
    /// Runs `statements` in order as one pipeline (libpq's pipeline mode): all are sent at
    /// once and their results read back after, so n statements cost one round trip instead
    /// of n. They run in one transaction, the implicit one the pipeline's sync point ends:
    /// committed at the sync when every statement succeeded, rolled back otherwise. Returns
    /// each statement's rows, in order, once the transaction is committed.
    ///
    /// `afterCommit`, when not empty, goes in the same round trip as a second transaction
    /// that the server runs once the first has ended (committed or rolled back). Its outcome
    /// is not reported: the first transaction's stands whatever becomes of the second (an
    /// error of it is dropped; a connection that breaks while it runs is left for `reset()`).
    ///
    /// - Throws: the first statement's error (those after it did not run, and nothing of the
    ///   transaction is kept), or the commit's. A connection that broke meanwhile throws
    ///   `.connection` and is left for `reset()` (`isConnected` is false).
    /// - Complexity: one round trip; O(size of the parameters and rows).
    public func transactionPipeline(_ statements: [(sql: String, parameters: [PostgresValue])],
                                    afterCommit: [(sql: String, parameters: [PostgresValue])] = []) throws(PostgresError) -> [[[PostgresValue]]] {
        guard PQenterPipelineMode(rawHandle) == 1 else { throw PostgresError(kind: .connection, message: lastMessage) }
        for (sql, parameters) in statements {
            try send(sql, parameters)
        }
        guard PQpipelineSync(rawHandle) == 1 else { throw PostgresError(kind: .connection, message: lastMessage) }
        if !afterCommit.isEmpty {
            for (sql, parameters) in afterCommit {
                try send(sql, parameters)
            }
            guard PQpipelineSync(rawHandle) == 1 else { throw PostgresError(kind: .connection, message: lastMessage) }
        }
        var answers: [[[PostgresValue]]] = []
        var failure: PostgresError?
        // Each statement's results end with NULL; the sync's is PGRES_PIPELINE_SYNC.
        for _ in statements {
            answers.append(readResults(failure: &failure))
            if PQstatus(rawHandle) != CONNECTION_OK { throw failure ?? PostgresError(kind: .connection, message: lastMessage) }
        }
        guard let sync = PQgetResult(rawHandle) else { throw failure ?? PostgresError(kind: .connection, message: lastMessage) }
        let synced = PQresultStatus(sync) == PGRES_PIPELINE_SYNC
        // The commit's own error, if it failed, comes in the sync's place.
        if !synced { do throws(PostgresError) { try check(sync) } catch { failure = failure ?? error } }
        PQclear(sync)
        guard synced else { throw failure ?? PostgresError(kind: .connection, message: lastMessage) }
        if !afterCommit.isEmpty {
            // The first transaction has ended: nothing below changes its outcome.
            var ignored: PostgresError?
            for _ in afterCommit where PQstatus(rawHandle) == CONNECTION_OK {
                _ = readResults(failure: &ignored)
            }
            if PQstatus(rawHandle) == CONNECTION_OK, let sync = PQgetResult(rawHandle) { PQclear(sync) }
            if PQstatus(rawHandle) != CONNECTION_OK {
                if let failure { throw failure }
                return answers
            }
        }
        guard PQexitPipelineMode(rawHandle) == 1 else { throw failure ?? PostgresError(kind: .connection, message: lastMessage) }
        if let failure { throw failure }
        return answers
    }

    /// Sends one statement of a pipeline.
    private func send(_ sql: String, _ parameters: [PostgresValue]) throws(PostgresError) {
        let sent = Self.withBinary(parameters) { count, types, values, lengths, formats in
            PQsendQueryParams(rawHandle, sql, count, types, values, lengths, formats, 1)
        }
        guard sent == 1 else { throw PostgresError(kind: .connection, message: lastMessage) }
    }

    /// Reads one pipelined statement's results, up to the NULL that ends them: its rows, and
    /// its error (the first one kept in `failure`).
    private func readResults(failure: inout PostgresError?) -> [[PostgresValue]] {
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
        return rows
    }
}
