import ArgumentParser
import Dispatch
import Logging
import Postgres
import ScrollStackPostgres
import ScrollStackService
import ScrollStackStore
import ScrollStackText

#if canImport(Glibc)
import Glibc
#endif

/// `scrollstackd migrate`: copies every stack and pile of a SQLite data dir (`--data-dir`)
/// into the PostgreSQL database that replicas share (`--store`), with every revision, event,
/// transition plan and snapshot, and every uploaded font (first, beside the transaction), so history, past revisions, `Last-Event-ID` and every answer
/// stay as they were.
///
/// First it opens the data dir as a server start would: a data dir written by an older
/// server is upgraded in place (the journal of operations), and every stack and pile must
/// rebuild; one that does not stops the migration before anything is copied. Then it copies
/// everything in one PostgreSQL transaction (all or nothing) and checks that the database's
/// latest revision of each key is the data dir's. A database that already holds journals is
/// refused unless `--replace`, which replaces those the data dir also holds (running it again
/// gives the same database). The server must not be running on the data dir meanwhile.
struct Migrate: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "migrate",
        abstract: "Copy every stack and pile of the SQLite data dir (--data-dir) into the PostgreSQL database (--store).",
        discussion: """
            Copies every revision, event, transition plan and snapshot in one transaction, then \
            checks each stack's and pile's latest revision in the database. Stop the server on \
            the data dir first. A data dir written by an older server is upgraded in place first, \
            as a server start would. A database already holding stacks or piles is refused unless \
            --replace. Takes the server's options (and SCROLLSTACK_* variables): only --data-dir \
            and --store matter.
            """
    )

    @OptionGroup(title: "Server options") var server: ScrollStackDaemon

    @Flag(help: "Replace the stacks and piles the database already holds under the same ids (by default a database holding any is refused).")
    var replace = false

    func run() throws {
        let logger = Logger(label: "scrollstackd.migrate")
        guard let url = server.storage.store else { throw ValidationError("give the PostgreSQL database to copy into: --store postgres://…") }
        guard !server.storage.inMemory else { throw ValidationError("--in-memory has nothing to migrate: give the data dir with --data-dir") }
        let file = server.storage.dataDir + "/scrollstack.sqlite"
        guard access(file, R_OK | W_OK) == 0 else {
            throw ValidationError("\(file) (from --data-dir) cannot be read and written: \(String(cString: strerror(errno)))")
        }
        let started = DispatchTime.now().uptimeNanoseconds
        let sqlite: SQLiteJournal
        let target: PostgresJournal
        do {
            sqlite = try SQLiteJournal(path: file)
            // As a server start: old formats are upgraded, and every stack and pile must rebuild.
            let service = StackService(logger: logger, journal: StackJournal(backend: sqlite),
                                       fonts: FontCatalog(directories: FontCatalog.defaultDirectories + server.text.fontDir))
            try service.restore()
            guard service.unavailableStacks.isEmpty else {
                logger.critical("\(service.unavailableStacks.count) stacks of \(server.storage.dataDir) do not rebuild: \(service.unavailableStacks.joined(separator: ", ")); nothing was copied (delete them, or restore a backup, first)")
                throw ExitCode.failure
            }
            target = try PostgresJournal(url: url, connections: 1)
        } catch let error as ExitCode {
            throw error
        } catch {
            logger.critical("cannot migrate: \(ConnectionString.redacting(url, in: "\(error)"))")
            throw ExitCode.failure
        }
        let keys: [String], held: [String]
        do throws(JournalError) {
            keys = try sqlite.archivedKeys()
            held = try target.journalKeys()
        } catch {
            logger.critical("cannot migrate (nothing was copied): \(ConnectionString.redacting(url, in: "\(error)"))")
            throw ExitCode.failure
        }
        if !held.isEmpty && !replace {
            logger.critical("\(server.storage.storeDescription) already holds \(held.count) stacks and piles (\(held.prefix(5).joined(separator: ", "))\(held.count > 5 ? ", …" : "")); nothing was copied. Give --replace to replace those \(server.storage.dataDir) also holds")
            throw ExitCode.failure
        }
        // Uploaded fonts (named blobs) first, so that the stacks using them rebuild on the
        // replicas: each is stored under its name unless the database holds it already (names
        // are content hashes), then every name is checked to be there.
        let blobs: [String]
        do throws(JournalError) {
            blobs = try sqlite.blobNames().map(\.name)
            for name in blobs {
                guard let bytes = try sqlite.blob(name: name) else { continue }
                _ = try target.putBlob(name: name, bytes: bytes)
            }
            let copied = Set(try target.blobNames().map(\.name))
            if let missing = blobs.first(where: { !copied.contains($0) }) { throw JournalError.failed("the blob \(missing) is missing after the copy") }
        } catch {
            logger.critical("cannot migrate the uploaded fonts (no stack was copied): \(ConnectionString.redacting(url, in: "\(error)"))")
            throw ExitCode.failure
        }
        var revisions: [String: Int] = [:]
        let records: Int, heads: [String: JournalHead]
        do throws(JournalError) {
            records = try target.importJournals(keys: keys, replacing: replace) { key throws(JournalError) in
                let archive = try sqlite.archive(key: key)
                revisions[key] = archive.revision
                return archive
            }
            heads = try target.heads()
        } catch {
            logger.critical("cannot migrate (nothing was copied): \(ConnectionString.redacting(url, in: "\(error)"))")
            throw ExitCode.failure
        }
        let differing = keys.filter { heads[$0]?.revision != revisions[$0] }
        guard differing.isEmpty else {
            logger.critical("after the copy, the database's latest revision differs for \(differing.joined(separator: ", "))")
            throw ExitCode.failure
        }
        let piles = keys.filter { $0.hasPrefix("pile:") }.count
        let milliseconds = (DispatchTime.now().uptimeNanoseconds - started) / 1_000_000
        let stacks = keys.count - piles
        if !blobs.isEmpty { logger.notice("copied \(blobs.count) uploaded \(blobs.count == 1 ? "font" : "fonts")") }
        logger.notice("copied \(stacks) \(stacks == 1 ? "stack" : "stacks") and \(piles) \(piles == 1 ? "pile" : "piles") (\(records) \(records == 1 ? "revision" : "revisions") after their first) from \(server.storage.dataDir) to \(server.storage.storeDescription) in \(milliseconds) ms; every latest revision checked")
    }
}
