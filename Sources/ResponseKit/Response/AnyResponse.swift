import Dispatch

/// A response seen without its value type: how the engine's untyped parts reach one. One
/// protocol, whose only conformer is ``Response``, rather than one per part (there were four).
/// It refines ``LongWaitSubject``, which the long-wait watch's tests also give stand-ins.
///
/// Untyped on purpose: those parts (a combinator's inputs, the tracker's list, the test checks'
/// table, a blocking wait and its watch) hold responses of many value types side by side, and
/// code that is not specialised for a value type must not look its metadata up on a hot path.
@usableFromInline
protocol AnyResponse: LongWaitSubject, CustomStringConvertible {
    // Claims (ResponseClaims.swift): what an upstream is asked by the responses derived from it.

    /// Records that one more derived response, task or blocking read waits for this response.
    func addClaim()
    /// Gives up one claim; cancels the response when it was the last one, no callback waits for it
    /// and the response is pending.
    func releaseClaim()
    /// ``releaseClaim()`` inside a completion under way, which a resulting cancellation joins.
    func releaseClaim(context: inout CompletionContext)
    /// Cancels the response after its last claim went away (it was pending then).
    func cancelAfterLastClaim(context: inout CompletionContext)

    // Tracking (ResponseTracking.swift).

    /// What ``ResponseTracking``'s list shows about the response; `nil` once it is done.
    func pendingSnapshot(age: DispatchTimeInterval) -> PendingResponse?

    // The test checks (ResponseCheckScopeTable.swift).

    /// Sets the `checked` flag: the response was made under a test's response checks.
    func setChecked()

    // Blocking waits (BlockingWait.swift, LongWaitWatch.swift).

    /// Whether the response has its outcome.
    var isDone: Bool { get }
    /// Where the response was made, for reports.
    var file: String { get }
    /// Where the response was made, for reports.
    var line: UInt { get }
}

extension Response: AnyResponse {}
