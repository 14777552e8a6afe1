import Foundation
import TestHTTPClient
import XCTest

/// `scrollstackd` as a container runs it: options from `SCROLLSTACK_*` variables, the health
/// check following the server's options, and a data folder it cannot write explained.
final class DaemonEnvironmentTests: XCTestCase {
    /// Every option `--help` lists, in whichever group, has its variable, and every variable
    /// is an option's: an option added to a group later has its variable with no code.
    func testEveryOptionInEveryHelpGroupHasAVariable() throws {
        let help = try DaemonHelp()
        XCTAssertTrue(Set(help.options).isSuperset(of: ["--port", "--host", "--data-dir", "--in-memory", "--log-level"]), help.text)
        // The variables the daemon accepts, as it lists them when it refuses an unknown one.
        let unknown = try DaemonProcess(["--in-memory"], environment: ["SCROLLSTACK_UNKNOWN": "1"])
        XCTAssertNotEqual(try unknown.finish(), 0)
        let accepted = Set(unknown.text.matches(#"SCROLLSTACK_[A-Z0-9_]+"#)).subtracting(["SCROLLSTACK_UNKNOWN"])
        for (title, options) in help.sections {
            for option in options where option != "--help" {
                XCTAssertTrue(accepted.contains(Self.variable(option)), "\(option) (\(title)) has no variable \(Self.variable(option)): \(unknown.text)")
            }
        }
        XCTAssertEqual(accepted, Set(help.options.map(Self.variable)), "every variable names an option --help lists")
    }

    func testAMisspeltVariableIsRefused() throws {
        let typo = try DaemonProcess(["--in-memory"], environment: ["SCROLLSTACK_PROT": "9000"])
        XCTAssertNotEqual(try typo.finish(), 0, "a misspelt variable must not pass silently")
        XCTAssertTrue(typo.text.contains("SCROLLSTACK_PROT names no option"), typo.text)
    }

    /// The clients' and the test suite's variables are not the server's: a shell that set
    /// them for a client or a seeded run starts the server, which takes none of their values.
    func testTheClientsAndTestsVariablesAreIgnored() throws {
        let daemon = try DaemonProcess(["--in-memory", "--port", "0"], environment: [
            "SCROLLSTACK_SEED": "12345", "SCROLLSTACK_URL": "http://127.0.0.1:1", "SCROLLSTACK_WRITE_TOKEN": "not-a-token",
            "SCROLLSTACK_TEST_WORKERS": "3", "SCROLLSTACK_CACHE": "/nonexistent",
        ])
        let port = try daemon.port()
        XCTAssertEqual(try httpRequest(port: port, method: "GET", path: "/healthz").status, 200)
        XCTAssertEqual(try daemon.finish(stop: true), 0, daemon.text)
        XCTAssertFalse(daemon.text.contains("names no option"), daemon.text)
    }

    /// `--advertise-url` is for replicas, and only an address other replicas can send to.
    func testAnAdvertisedAddressNeedsAStoreAndAnHTTPAddress() throws {
        let alone = try DaemonProcess(["--in-memory", "--advertise-url", "http://127.0.0.1:9000"])
        XCTAssertNotEqual(try alone.finish(), 0)
        XCTAssertTrue(alone.text.contains("--advertise-url is for replicas: give --store postgres://… too"), alone.text)
        let path = try DaemonProcess(["--store", "postgres://nobody@127.0.0.1:1/none"],
                                     environment: ["SCROLLSTACK_ADVERTISE_URL": "http://replica-a:8080/v1"])
        XCTAssertNotEqual(try path.finish(), 0)
        XCTAssertTrue(path.text.contains(#"--advertise-url "http://replica-a:8080/v1" is not http://host:port (no path, no user)"#), path.text)
    }

    /// `--max-body-bytes` → `SCROLLSTACK_MAX_BODY_BYTES`.
    static func variable(_ option: String) -> String {
        "SCROLLSTACK_" + option.dropFirst(2).uppercased().replacingOccurrences(of: "-", with: "_")
    }

    func testOptionsComeFromTheEnvironmentAndTheCommandLineWins() throws {
        // Port 0 (a free one) instead of the default 8080, in memory, notices only; the
        // invalid host from the environment is overridden by the command line.
        let daemon = try DaemonProcess(["--host", "127.0.0.1"], environment: [
            "SCROLLSTACK_PORT": "0", "SCROLLSTACK_IN_MEMORY": "true", "SCROLLSTACK_LOG_LEVEL": "notice",
            "SCROLLSTACK_HOST": "not-an-address", "SCROLLSTACK_DATA_DIR": "/proc/not-writable",
        ])
        let port = try daemon.port()
        XCTAssertNotEqual(port, 8080)
        XCTAssertEqual(try httpRequest(port: port, method: "GET", path: "/healthz").status, 200)
        XCTAssertEqual(try daemon.finish(stop: true), 0)
        XCTAssertTrue(daemon.text.contains("restored 0 stacks from memory"), daemon.text)
        XCTAssertFalse(daemon.text.contains("GET /healthz 200"), "info lines are below the notice level: \(daemon.text)")

        let wrong = try DaemonProcess(["--in-memory"], environment: ["SCROLLSTACK_PORT": "eighty"])
        XCTAssertNotEqual(try wrong.finish(), 0)
        XCTAssertTrue(wrong.text.contains("'eighty' is invalid for '--port"), wrong.text)
        XCTAssertTrue(wrong.text.contains("options also came from SCROLLSTACK_PORT"), wrong.text)

        let flag = try DaemonProcess([], environment: ["SCROLLSTACK_IN_MEMORY": "perhaps"])
        XCTAssertNotEqual(try flag.finish(), 0)
        XCTAssertTrue(flag.text.contains("SCROLLSTACK_IN_MEMORY must be true or false"), flag.text)
    }

    func testHealthCheckFollowsTheServersOptions() throws {
        let daemon = try DaemonProcess(["--in-memory", "--log-level", "notice"], environment: ["SCROLLSTACK_PORT": "0"])
        let port = try daemon.port()

        func healthcheck(_ arguments: [String], _ environment: [String: String]) throws -> (Int32, String) {
            let check = try DaemonProcess(["healthcheck"] + arguments, environment: environment)
            return (try check.finish(), check.text)
        }
        var (status, text) = try healthcheck([], ["SCROLLSTACK_PORT": "\(port)"])
        XCTAssertEqual(status, 0, text)
        XCTAssertEqual(text, "healthy: http://127.0.0.1:\(port)/healthz answered 200\n")
        // A wildcard host is asked on loopback; the command line wins over the environment.
        (status, text) = try healthcheck(["--port", "\(port)"], ["SCROLLSTACK_HOST": "0.0.0.0", "SCROLLSTACK_PORT": "1"])
        XCTAssertEqual(status, 0, text)

        XCTAssertEqual(try daemon.finish(stop: true), 0)
        (status, text) = try healthcheck([], ["SCROLLSTACK_PORT": "\(port)"])
        XCTAssertEqual(status, 1, text)
        XCTAssertTrue(text.hasPrefix("unhealthy: http://127.0.0.1:\(port)/healthz: connect: Connection refused"), text)
    }

    /// A data folder owned by someone else (a root-owned bind mount, in a container) stops the
    /// start with its owner, the server's uid and what to do. As root, the server runs as
    /// nobody (setpriv) so that permissions apply.
    func testADataFolderItCannotWriteIsExplained() throws {
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("scrollstack-\(UUID().uuidString)")
        let folder = scratch.appendingPathComponent("data")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o755])
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: scratch.path)
        defer { try? FileManager.default.removeItem(at: scratch) }
        var arguments = ["--port", "0", "--data-dir", folder.path]
        var executable = Daemon.binary
        var uid = getuid(), gid = getgid()
        if getuid() == 0 {
            guard FileManager.default.isExecutableFile(atPath: "/usr/bin/setpriv") else { throw XCTSkip("setpriv (util-linux) is missing") }
            // A copy nobody can reach and run.
            let copy = scratch.appendingPathComponent("scrollstackd")
            try FileManager.default.copyItem(at: Daemon.binary, to: copy)
            arguments = ["--reuid", "65534", "--regid", "65534", "--clear-groups", copy.path] + arguments
            executable = URL(fileURLWithPath: "/usr/bin/setpriv")
            (uid, gid) = (65534, 65534)
        } else {
            try FileManager.default.setAttributes([.posixPermissions: 0o555], ofItemAtPath: folder.path)
        }
        let daemon = try DaemonProcess(arguments, executable: executable)
        XCTAssertEqual(try daemon.finish(), 1)
        let mode = getuid() == 0 ? "0755" : "0555"
        for part in [
            "cannot write to \(folder.path) (the data folder, --data-dir): Permission denied",
            "\(folder.path) belongs to uid \(getuid()), gid \(getgid()), mode \(mode)",
            "the server runs as uid \(uid), gid \(gid)",
            "chown -R \(uid):\(gid) HOST_FOLDER", "--user \(getuid()):\(getgid())", "named volume",
        ] {
            XCTAssertTrue(daemon.text.contains(part), "“\(part)” missing from: \(daemon.text)")
        }
        XCTAssertFalse(daemon.text.contains("SQLite"), daemon.text)
    }
}

private extension String {
    /// Every match of `pattern`, in order.
    func matches(_ pattern: String) -> [String] {
        let expression = try! NSRegularExpression(pattern: pattern)
        return expression.matches(in: self, range: NSRange(startIndex..., in: self)).compactMap { Range($0.range, in: self).map { String(self[$0]) } }
    }
}
