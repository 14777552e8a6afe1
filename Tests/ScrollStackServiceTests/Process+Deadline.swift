import Foundation
import XCTest

extension Process {
    /// Waits for the process to exit, `seconds` at most; past that it is killed (SIGKILL) and
    /// the test fails, so a daemon that does not stop cannot hang the suite.
    func waitForExit(within seconds: Double = 30, file: StaticString = #filePath, line: UInt = #line) {
        let exited = DispatchSemaphore(value: 0)
        terminationHandler = { _ in exited.signal() }
        guard isRunning else { return }
        if exited.wait(timeout: .now() + seconds) == .timedOut {
            XCTFail("the process did not exit within \(seconds) s", file: file, line: line)
            kill(processIdentifier, SIGKILL)
        }
        waitUntilExit()  // at once now: it has exited (or was just killed)
    }
}
