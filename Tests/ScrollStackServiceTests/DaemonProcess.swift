import Foundation

/// `scrollstackd` (or its health check) run with a chosen environment, its output collected
/// as it comes, every wait bounded by a deadline.
final class DaemonProcess: @unchecked Sendable {
    let process = Process()
    private let exited = DispatchSemaphore(value: 0)
    private let output = Output()

    /// The output read so far, filled by a thread of its own that reads the pipe until its end
    /// (it holds this, not the `DaemonProcess`, whose `deinit` must stay free to stop the
    /// process).
    private final class Output: @unchecked Sendable {  // bytes are guarded by the lock
        let lock = NSLock()
        var bytes = Data()
        /// Signalled after each piece read.
        let arrived = DispatchSemaphore(value: 0)
        /// Signalled once the pipe's end is read: everything written is in `bytes`.
        let drained = DispatchSemaphore(value: 0)

        func read(_ handle: FileHandle) {
            while true {
                let data = handle.availableData
                if data.isEmpty { break }
                lock.lock()
                bytes.append(data)
                lock.unlock()
                arrived.signal()
            }
            drained.signal()
        }
    }

    /// Starts `executable` (the daemon next to the tests by default) with `arguments` and only
    /// `environment` (plus PATH); standard output and error are collected together.
    init(_ arguments: [String], environment: [String: String] = [:], executable: URL = Daemon.binary) throws {
        process.executableURL = executable
        process.arguments = arguments
        process.environment = environment.merging(["PATH": "/usr/bin:/bin"]) { mine, _ in mine }
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = pipe
        process.terminationHandler = { [exited] _ in exited.signal() }
        try process.run()
        let (output, reading) = (output, pipe.fileHandleForReading)
        Thread.detachNewThread { output.read(reading) }
    }

    deinit {
        if process.isRunning { process.terminate() }
    }

    /// Everything written so far.
    var text: String {
        output.lock.lock()
        defer { output.lock.unlock() }
        return String(decoding: output.bytes, as: UTF8.self)
    }

    /// Waits until the output contains `needle`; throws when the process ends first or after
    /// `seconds`.
    func waitFor(_ needle: String, seconds: Double = 20) throws {
        let deadline = DispatchTime.now() + seconds
        while !text.contains(needle) {
            guard process.isRunning else { throw DaemonError(message: "ended before “\(needle)”: \(text)") }
            guard output.arrived.wait(timeout: deadline) == .success else {
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
        // The last output may still be in the pipe: answer once the reader has read its end
        // (a child of the process that kept the pipe open is given up on at the deadline).
        if output.drained.wait(timeout: .now() + seconds) == .success { output.drained.signal() }
        return process.terminationStatus
    }
}
