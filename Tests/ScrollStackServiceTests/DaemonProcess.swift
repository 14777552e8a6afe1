import Foundation

/// `scrollstackd` (or its health check) run with a chosen environment, its output collected
/// as it comes, every wait bounded by a deadline.
final class DaemonProcess: @unchecked Sendable {  // output is guarded by the lock
    let process = Process()
    private let lock = NSLock()
    private let arrived = DispatchSemaphore(value: 0)
    private let exited = DispatchSemaphore(value: 0)
    private var output = Data()

    /// Starts `executable` (the daemon next to the tests by default) with `arguments` and only
    /// `environment` (plus PATH); standard output and error are collected together.
    init(_ arguments: [String], environment: [String: String] = [:], executable: URL = Daemon.binary) throws {
        process.executableURL = executable
        process.arguments = arguments
        process.environment = environment.merging(["PATH": "/usr/bin:/bin"]) { mine, _ in mine }
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = pipe
        pipe.fileHandleForReading.readabilityHandler = { [weak self] handle in
            let data = handle.availableData
            guard let self, !data.isEmpty else { return }
            self.lock.lock()
            self.output.append(data)
            self.lock.unlock()
            self.arrived.signal()
        }
        process.terminationHandler = { [exited] _ in exited.signal() }
        try process.run()
    }

    deinit {
        if process.isRunning { process.terminate() }
    }

    /// Everything written so far.
    var text: String {
        lock.lock()
        defer { lock.unlock() }
        return String(decoding: output, as: UTF8.self)
    }

    /// Waits until the output contains `needle`; throws when the process ends first or after
    /// `seconds`.
    func waitFor(_ needle: String, seconds: Double = 20) throws {
        let deadline = DispatchTime.now() + seconds
        while !text.contains(needle) {
            guard process.isRunning else { throw DaemonError(message: "ended before “\(needle)”: \(text)") }
            guard arrived.wait(timeout: deadline) == .success else {
                throw DaemonError(message: "no “\(needle)” within \(seconds) s: \(text)")
            }
        }
    }

    /// The port the daemon reports listening on (its log level must show notices).
    func port(seconds: Double = 20) throws -> Int {
        try waitFor("listening on", seconds: seconds)
        guard let range = text.range(of: #"listening on http://[^ \n]*:(\d+)"#, options: .regularExpression),
              let port = Int(text[range].split(separator: ":").last ?? "") else {
            throw DaemonError(message: "the daemon did not report its port: \(text)")
        }
        return port
    }

    /// Waits for the process to end (SIGTERM first when `stop`); its exit status. Throws after
    /// `seconds`, killing it.
    @discardableResult
    func finish(stop: Bool = false, seconds: Double = 20) throws -> Int32 {
        if stop { process.terminate() }
        guard exited.wait(timeout: .now() + seconds) == .success else {
            kill(process.processIdentifier, SIGKILL)
            throw DaemonError(message: "still running after \(seconds) s: \(text)")
        }
        exited.signal()
        // The last output may still be in the pipe: read it before answering.
        let rest = (process.standardOutput as? Pipe)?.fileHandleForReading
        rest?.readabilityHandler = nil
        if let data = try? rest?.readToEnd(), !data.isEmpty {
            lock.lock()
            output.append(data)
            lock.unlock()
        }
        return process.terminationStatus
    }
}
