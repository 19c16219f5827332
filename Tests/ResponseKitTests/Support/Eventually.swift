import ResponseKit
import Testing

/// Yields until `condition` holds: for a state that only the code under test can bring about
/// (an awaiting task registered on a response) and that announces itself by no event.
///
/// A bounded poll, not a sleep: it returns as soon as the condition holds, and its generous
/// limit only matters when the code is broken, where it fails the test instead of hanging.
/// Five minutes: under the thread sanitizer, with the whole suite in parallel on two cores, Swift
/// concurrency's two threads were busy for about a minute at a time (CI, 2026-11-28), so one
/// minute failed correct tests.
func yieldUntil(
    _ condition: () -> Bool,
    _ comment: Comment? = nil,
    sourceLocation: SourceLocation = #_sourceLocation
) async {
    let limit = ContinuousClock.now + .seconds(300)
    while !condition() {
        guard ContinuousClock.now < limit else {
            Issue.record(comment ?? "the condition never held", sourceLocation: sourceLocation)
            return
        }
        await Task.yield()
    }
}

/// `task`'s result, waited for from a thread of its own so that a task that never ends (an
/// await whose continuation is never resumed) fails the test after a generous limit (five
/// minutes, as ``yieldUntil(_:_:sourceLocation:)`` says why) instead of hanging it; `nil` then.
func resultWithinLimit<T: Sendable>(
    of task: Task<T, any Error>,
    sourceLocation: SourceLocation = #_sourceLocation
) async -> Result<T, any Error>? {
    let (ended, resolver) = Response<Result<T, any Error>>.pending(on: .immediate)
    Task { resolver.succeed(await task.result) }
    do {
        return try await onOwnThread { try ended.wait(timeout: .seconds(300)) }
    } catch {
        Issue.record("the task never ended: \(error)", sourceLocation: sourceLocation)
        return nil
    }
}
