import Testing
import XCTest

/// Fails the test running now with `message`: an issue of the Swift Testing test this task runs,
/// at `sourceLocation`, or else an XCTest failure at `file`:`line`.
///
/// XCTest offers no public way to ask whether one of its tests is running, and drops a failure
/// recorded while none is: a caller that must not lose the message outside any test passes it on
/// itself when this returns `false`.
///
/// - Parameters:
///   - message: what went wrong.
///   - sourceLocation: where Swift Testing shows the issue.
///   - file: where XCTest shows the failure.
///   - line: the line XCTest shows.
/// - Returns: `true` when a Swift Testing issue was recorded.
@discardableResult
func failRunningTest(_ message: String, sourceLocation: SourceLocation, file: StaticString, line: UInt) -> Bool {
    guard Test.current != nil else {
        XCTFail(message, file: file, line: line)
        return false
    }
    Issue.record(Comment(rawValue: message), sourceLocation: sourceLocation)
    return true
}
