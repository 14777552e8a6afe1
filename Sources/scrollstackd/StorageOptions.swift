import ArgumentParser
import MicroHTTP
import Postgres

/// `scrollstackd`'s options for where the stacks are kept: a SQLite file in a data folder (the
/// default), a PostgreSQL database that replicas share, or memory only.
struct StorageOptions: ParsableArguments {
    @Option(help: "The folder holding the database (scrollstack.sqlite); created if missing.")
    var dataDir = "./data"

    @Option(help: "Where stacks are kept: a PostgreSQL URL (postgres://user:password@host:port/database) that any number of replicas share; by default the SQLite file in --data-dir.")
    var store: String?

    @Option(name: .customLong("advertise-url"), help: "With --store: where the other replicas reach this one (http://host:port). Replicas given one take turns writing each stack, and the others forward a stack's writes to the one writing it, so that its writes are batched together.")
    var advertiseURL: String?

    @Flag(help: "Keep stacks in memory only: nothing survives a restart (for tests and throwaway use).")
    var inMemory = false

    func validate() throws {
        guard let advertiseURL else { return }
        guard store != nil else { throw ValidationError("--advertise-url is for replicas: give --store postgres://… too") }
        guard HTTPForwarder.isAddress(advertiseURL) else {
            throw ValidationError("--advertise-url \"\(advertiseURL)\" is not http://host:port (no path, no user)")
        }
    }

    /// Where the stacks are, for log lines: the PostgreSQL database with any password masked
    /// (`ConnectionString.redacted`), memory, or the data folder.
    var storeDescription: String {
        if let store { return "PostgreSQL at " + ConnectionString.redacted(store) }
        return inMemory ? "memory" : dataDir
    }
}
