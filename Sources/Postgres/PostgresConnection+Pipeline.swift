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
    /// Each statement is prepared the first time this session runs its SQL (in the same
    /// pipeline) and run prepared after that, so the server parses and plans it once per
    /// connection, not once per call; a statement's parameter types are those of its first
    /// call (`.null` lets the server infer it from the SQL).
    ///
    /// - Throws: the first statement's error (those after it did not run, and nothing of the
    ///   transaction is kept), or the commit's. A connection that broke meanwhile throws
    ///   `.connection` and is left for `reset()` (`isConnected` is false).
    /// - Complexity: one round trip; O(size of the parameters and rows).
    public func transactionPipeline(_ statements: [(sql: String, parameters: [PostgresValue])],
                                    afterCommit: [(sql: String, parameters: [PostgresValue])] = []) throws(PostgresError) -> [[[PostgresValue]]] {
        guard PQenterPipelineMode(rawHandle) == 1 else { throw PostgresError(kind: .connection, message: lastMessage) }
        // Per statement sent, the name of the statement prepared just before it (nil: none).
        var preparing: [(name: String, sql: String)?] = []
        for (sql, parameters) in statements {
            preparing.append(try send(sql, parameters))
        }
        guard PQpipelineSync(rawHandle) == 1 else { throw PostgresError(kind: .connection, message: lastMessage) }
        if !afterCommit.isEmpty {
            for (sql, parameters) in afterCommit {
                preparing.append(try send(sql, parameters))
            }
            guard PQpipelineSync(rawHandle) == 1 else { throw PostgresError(kind: .connection, message: lastMessage) }
        }
        var answers: [[[PostgresValue]]] = []
        var failure: PostgresError?
        // Each statement's results (and a preparation's) end with NULL; the sync's is
        // PGRES_PIPELINE_SYNC.
        for index in statements.indices {
            readPreparation(preparing[index], failure: &failure)
            answers.append(readResults(failure: &failure).rows)
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
            for index in statements.count..<preparing.count where PQstatus(rawHandle) == CONNECTION_OK {
                readPreparation(preparing[index], failure: &ignored)
                readResults(failure: &ignored)
            }
            if PQstatus(rawHandle) == CONNECTION_OK, let sync = PQgetResult(rawHandle) { PQclear(sync) }
            // However the second ended (the server gone meanwhile, a result left unread), the
            // first's outcome stands; a connection left in pipeline mode is not `isConnected`,
            // and is reset before its next use.
            if PQstatus(rawHandle) != CONNECTION_OK || PQexitPipelineMode(rawHandle) != 1 {
                if let failure { throw failure }
                return answers
            }
        } else {
            guard PQexitPipelineMode(rawHandle) == 1 else { throw failure ?? PostgresError(kind: .connection, message: lastMessage) }
        }
        if let failure { throw failure }
        return answers
    }

    /// Sends one statement of a pipeline, as a prepared one: prepared first (and the name and
    /// SQL returned) when this session has not prepared its SQL yet.
    private func send(_ sql: String, _ parameters: [PostgresValue]) throws(PostgresError) -> (name: String, sql: String)? {
        var preparing: (name: String, sql: String)?
        let name: String
        if let known = prepared[sql] {
            name = known
        } else {
            preparations += 1
            name = "scrollstack_\(preparations)"
            preparing = (name, sql)
        }
        let sent = Self.withBinary(parameters) { count, types, values, lengths, formats in
            if preparing != nil, PQsendPrepare(rawHandle, name, sql, count, types) != 1 { return Int32(0) }
            return PQsendQueryPrepared(rawHandle, name, count, values, lengths, formats, 1)
        }
        guard sent == 1 else { throw PostgresError(kind: .connection, message: lastMessage) }
        return preparing
    }

    /// Reads the outcome of a preparation sent before a statement (none: nothing to read);
    /// a statement prepared is known to the session from then on.
    private func readPreparation(_ preparation: (name: String, sql: String)?, failure: inout PostgresError?) {
        guard let preparation else { return }
        if readResults(failure: &failure).succeeded { prepared[preparation.sql] = preparation.name }
    }

    /// Reads one pipelined statement's results (or a preparation's), up to the NULL that
    /// ends them: its rows, whether it ran and succeeded (not skipped after an earlier
    /// error), and its error (the first one kept in `failure`).
    @discardableResult
    private func readResults(failure: inout PostgresError?) -> (rows: [[PostgresValue]], succeeded: Bool) {
        var rows: [[PostgresValue]] = []
        var succeeded = false
        while let result = PQgetResult(rawHandle) {
            defer { PQclear(result) }
            switch PQresultStatus(result) {
            case PGRES_PIPELINE_ABORTED:
                continue
            case PGRES_TUPLES_OK:
                do throws(PostgresError) { rows = try self.rows(of: result); succeeded = true } catch { failure = failure ?? error }
            default:
                do throws(PostgresError) { try check(result); succeeded = true } catch { failure = failure ?? error }
            }
        }
        return (rows, succeeded)
    }
}
