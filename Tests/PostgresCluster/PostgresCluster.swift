import Foundation

/// A throwaway PostgreSQL server on loopback for one test (`Scripts/postgres-cluster.sh`):
/// its own data directory under the temporary folder, an ephemeral port, run as the
/// unprivileged `postgres` user when the tests run as root. Every wait has a deadline.
public final class PostgresCluster: @unchecked Sendable {
    public struct Failure: Error, CustomStringConvertible {
        public let description: String
    }

    /// The cluster's folder (data, log, socket, port).
    public let directory: URL
    /// `postgresql://scrollstack@127.0.0.1:PORT/postgres`.
    public private(set) var url = ""
    private let fsync: Bool

    static let script = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Scripts/postgres-cluster.sh")

    /// Creates and starts a cluster. `fsync` off (the default) suits tests that never crash
    /// the server's machine; benchmarks keep it on.
    public init(fsync: Bool = false) throws {
        self.fsync = fsync
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("scrollstack-pg-\(UUID().uuidString.prefix(8))")
        try start()
    }

    deinit { _ = try? run(["destroy", directory.path]) }

    /// Starts the server (again, after `stop()`: same port, same data).
    public func start() throws {
        url = try run(["start", directory.path, fsync ? "on" : "off"]).trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// Stops the server at once (`pg_ctl -m fast`: open sessions are cut).
    public func stop() throws {
        try run(["stop", directory.path])
    }

    /// Stops the server as a crash would (`pg_ctl -m immediate`): every backend exits at once,
    /// so no transaction waiting for a lock can be granted it and commit on the way out, as
    /// it can while a fast shutdown ends the sessions one by one. `start` recovers.
    public func crash() throws {
        try run(["crash", directory.path])
    }

    /// Runs the script, returning its standard output; throws on failure or after `seconds`.
    /// Spawned and reaped here (posix_spawn, waitpid on a thread of its own) rather than with
    /// Foundation's `Process`, whose exit notification never came when run from a class's
    /// `setUp`.
    @discardableResult
    private func run(_ arguments: [String], seconds: Double = 180) throws -> String {
        // Files, not pipes: the server the script starts must not hold a pipe of ours open.
        let base = FileManager.default.temporaryDirectory.appendingPathComponent("pg-cluster-\(UUID().uuidString)").path
        let outputPath = base + ".out", errorPath = base + ".err"
        defer { unlink(outputPath); unlink(errorPath) }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, outputPath, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        posix_spawn_file_actions_addopen(&actions, 2, errorPath, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        let argv = ([Self.script.path] + arguments).map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        var pid: pid_t = 0
        let spawned = posix_spawn(&pid, Self.script.path, &actions, nil, argv, environ)
        guard spawned == 0 else { throw Failure(description: "cannot run \(Self.script.path): error \(spawned)") }
        let ended = DispatchSemaphore(value: 0)
        let status = ExitStatus()
        let reaper = Thread { [pid] in
            while waitpid(pid, &status.value, 0) == -1 && errno == EINTR {}
            ended.signal()
        }
        reaper.start()
        let what = "postgres-cluster.sh \(arguments.joined(separator: " "))"
        guard ended.wait(timeout: .now() + seconds) == .success else {
            kill(pid, SIGKILL)
            _ = ended.wait(timeout: .now() + 30)
            throw Failure(description: "\(what) still running after \(seconds) s")
        }
        let out = (try? String(contentsOfFile: outputPath, encoding: .utf8)) ?? ""
        guard status.value == 0 else {
            let err = (try? String(contentsOfFile: errorPath, encoding: .utf8)) ?? ""
            throw Failure(description: "\(what) failed (wait status \(status.value)): \(err)")
        }
        return out
    }
}

/// The wait status the reaper thread writes before it signals (read only after the signal).
private final class ExitStatus: @unchecked Sendable {
    var value: Int32 = 0
}
