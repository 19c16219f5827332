/// A misuse or a likely bug that ResponseKit noticed: a response resolved twice, a failure
/// nobody observed, a blocking wait that may never end.
///
/// Diagnostics never change what a program does (the first result still wins); they make sure
/// the problem is not lost silently. See ``ResponseDiagnostics``.
public struct ResponseDiagnostic: Sendable, CustomStringConvertible {
    /// What kind of problem this is.
    public struct Kind: Hashable, Sendable, CustomStringConvertible {
        /// The name of the kind, such as `resolvedTwice`.
        public let description: String

        /// A response that was already done was given another result. The first result stands.
        /// Also a completion handler wrapped by `Response.wrap` that was called again (or a
        /// wrapped call that threw after calling it), named by the `wrap` site.
        public static let resolvedTwice = Kind(description: "resolvedTwice")
        /// A response failed and was released without anyone observing the failure: no
        /// `onFailure`, `onResult` or `always`, no blocking read, no await. Cancellation does not
        /// count: whoever cancelled knows.
        public static let unobservedFailure = Kind(description: "unobservedFailure")
        /// A blocking wait with no timeout has been waiting longer than
        /// ``ResponseDiagnostics/longWaitThreshold``: perhaps the work needs the thread or queue
        /// that the wait blocks, and can never finish. Reported once per wait: by the waiting
        /// thread, or, for a wait asleep outside the main thread and any task, by ResponseKit's
        /// long-wait watch, on a queue of its own.
        public static let longWait = Kind(description: "longWait")
        /// A blocking wait inside a main-queue job (a `DispatchQueue.main` block, a `@MainActor`
        /// task or test, a `.main` callback run during another wait) has waited longer than
        /// ``ResponseDiagnostics/mainQueueBlockedThreshold`` (half a second by default). The main
        /// queue can run nothing else until that job returns: the wait runs ResponseKit's own
        /// main-queue work, but work that needs any other main-queue job can never finish.
        /// Reported once per wait, naming the response; a wait that ends sooner (its work done
        /// off the main queue, or by ResponseKit's own main-queue jobs) is never reported.
        public static let mainQueueBlocked = Kind(description: "mainQueueBlocked")
        /// A pending response's last resolver was released before it was resolved: the response
        /// failed with ``ResponseError/abandoned``, so its callbacks and waiters hear of it.
        public static let abandoned = Kind(description: "abandoned")
        /// A `flatMap` or `flatMapError` returned the response it makes; that response failed with
        /// ``ResponseError/returnedSelf`` instead of waiting for itself forever.
        public static let returnedSelf = Kind(description: "returnedSelf")
        /// A tracked response has been pending longer than the watchdog's threshold (see
        /// ``ResponseTracking/startWatchdog(threshold:interval:)-(Duration,_)``). Reported once per response,
        /// with its creation site, age, executor and number of observers; the response goes on.
        public static let longPending = Kind(description: "longPending")
        /// The process exited with deliveries still queued for the main queue that never ran
        /// (`.main` and main-actor callbacks, `Response(on: .main)` bodies): nobody serviced the
        /// main queue (`dispatchMain()`, `RunLoop.main.run()`), or the process exited before it
        /// got to them. Reported once, at exit, with how many and the creation site of the first.
        public static let lostAtExit = Kind(description: "lostAtExit")
        /// Found by ResponseKitTesting's response checks, not reported by ResponseKit itself: a
        /// response the test made is still pending, and still referenced, when the test ends.
        public static let pendingAtEnd = Kind(description: "pendingAtEnd")
        /// Found by ResponseKitTesting's response checks: a test double the test made (a
        /// `ManualExecutor`, a `ManualScheduler`, a `StubbedCalls`) still has work when it ends.
        /// Also a `ManualExecutor` or `ManualScheduler` released with jobs that never ran: a
        /// failure of the test that releases it, and, outside the checks and Swift Testing, a
        /// report to the handler.
        public static let leftoverWork = Kind(description: "leftoverWork")
    }

    /// What kind of problem this is.
    public let kind: Kind
    /// A sentence saying what happened and where.
    public let message: String
    /// The file that created the response concerned.
    public let file: String
    /// The line that created the response concerned.
    public let line: UInt

    /// Makes a diagnostic; ResponseKit makes them as it notices problems, tests of a handler may too.
    ///
    /// - Parameters:
    ///   - kind: what kind of problem this is.
    ///   - message: a sentence saying what happened and where.
    ///   - file: the file that created the response concerned.
    ///   - line: the line that created the response concerned.
    public init(kind: Kind, message: String, file: String, line: UInt) {
        self.kind = kind
        self.message = message
        self.file = file
        self.line = line
    }

    /// `ResponseKit <kind>: <message>`: one line.
    public var description: String {
        "ResponseKit \(kind): \(message)"
    }
}

/// Where ResponseKit reports misuse: one hook for the whole process.
///
/// By default each diagnostic is written as one line to standard error. Set ``handler`` once at
/// start-up to send them to your logger, or in a test to record them:
///
/// <!-- example: fragment -->
/// ```swift
/// ResponseDiagnostics.handler = { diagnostic in print("warning: \(diagnostic)") }   // or your logger
/// ```
public enum ResponseDiagnostics {
    private struct Settings: Sendable {
        var handler: @Sendable (ResponseDiagnostic) -> Void = ResponseDiagnostics.writeToStandardError
        /// Nanoseconds (not a `Duration`, which needs macOS 13 / iOS 16: blocking waits read it).
        var longWaitThresholdNanoseconds: UInt64 = 10_000_000_000
        var mainQueueBlockedThresholdNanoseconds: UInt64 = 500_000_000
    }

    private static let settings = LockedBox.make(Settings())

    /// Receives every diagnostic. Called on the thread that noticed the problem.
    ///
    /// Except in a test under ResponseKitTesting's response checks (`@Test(.responseChecks)`,
    /// `ResponseChecksTestCase`): a diagnostic about a response that test made is an issue of the
    /// test instead, and does not come here.
    ///
    /// A long wait asleep outside the main thread and any task is reported from the long-wait
    /// watch's one queue (see ``ResponseDiagnostic/Kind/longWait``), which reports such waits one
    /// after another: a handler that takes long delays the reports of other long waits, and one
    /// that blocks on a response stops them until that response is done.
    public static var handler: @Sendable (ResponseDiagnostic) -> Void {
        get { settings.withLock { $0.handler } }
        set { settings.withLock { $0.handler = newValue } }
    }

    /// How long a blocking wait with no timeout may take before a ``ResponseDiagnostic/Kind/longWait``
    /// diagnostic is reported (once per wait; the wait goes on). Ten seconds by default.
    @available(macOS 13, iOS 16, tvOS 16, watchOS 9, *)
    public static var longWaitThreshold: Duration {
        get { .nanoseconds(Int64(clamping: longWaitThresholdNanoseconds)) }
        set {
            let nanoseconds = max(newValue, .milliseconds(1)).saturatingNanoseconds
            settings.withLock { $0.longWaitThresholdNanoseconds = nanoseconds }
        }
    }

    /// ``longWaitThreshold`` in nanoseconds, at the package's platform floor.
    static var longWaitThresholdNanoseconds: UInt64 {
        settings.withLock { $0.longWaitThresholdNanoseconds }
    }

    /// How long a blocking wait inside a main-queue job may take before a
    /// ``ResponseDiagnostic/Kind/mainQueueBlocked`` diagnostic is reported (once per wait; the
    /// wait goes on). Half a second by default.
    ///
    /// Why a delay rather than a report at once: from inside the wait, ResponseKit cannot tell
    /// work that a global queue finishes in a moment from work that needs the main queue this
    /// wait holds. Reported at once, every such wait was a false alarm in the common case. Half a
    /// second is long enough that work done elsewhere has finished, and short enough that a
    /// wait that can never finish is named promptly (it also freezes an app's interface).
    @available(macOS 13, iOS 16, tvOS 16, watchOS 9, *)
    public static var mainQueueBlockedThreshold: Duration {
        get { .nanoseconds(Int64(clamping: mainQueueBlockedThresholdNanoseconds)) }
        set {
            let nanoseconds = max(newValue, .zero).saturatingNanoseconds
            settings.withLock { $0.mainQueueBlockedThresholdNanoseconds = nanoseconds }
        }
    }

    /// ``mainQueueBlockedThreshold`` in nanoseconds, at the package's platform floor.
    static var mainQueueBlockedThresholdNanoseconds: UInt64 {
        settings.withLock { $0.mainQueueBlockedThresholdNanoseconds }
    }

    /// The default handler: one line on standard error.
    ///
    /// - Parameter diagnostic: the problem to write.
    @Sendable
    public static func writeToStandardError(_ diagnostic: ResponseDiagnostic) {
        StandardError.writeLine(diagnostic.description)
    }

    /// Reports a problem: to the test that made the response concerned, when a test that checks
    /// responses made it (`ResponseCheckScope`), otherwise to ``handler``.
    ///
    /// - Parameters:
    ///   - response: the response concerned, if any.
    ///   - scope: the scope of a response no longer at hand (`wrap`'s gate keeps no response).
    static func report(
        _ kind: ResponseDiagnostic.Kind,
        _ message: String,
        file: String,
        line: UInt,
        about response: AnyObject? = nil,
        in scope: ResponseCheckScope? = nil
    ) {
        // One line, as promised, even when an error's description spans several.
        let oneLine = message.split(whereSeparator: \.isNewline).joined(separator: " ")
        let diagnostic = ResponseDiagnostic(kind: kind, message: oneLine, file: file, line: line)
        if let scope {
            scope.receive(diagnostic)
            return
        }
        if let response, ResponseCheckScopeTable.deliver(diagnostic, about: ObjectIdentifier(response)) { return }
        handler(diagnostic)
    }
}
