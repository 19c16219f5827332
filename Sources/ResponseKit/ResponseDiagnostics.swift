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
        /// A blocking wait started inside a main-queue job (a `DispatchQueue.main` block, a
        /// `@MainActor` task, a `.main` callback run during another wait) on a response that was not
        /// done. The main queue can run nothing else until that job returns: the wait runs
        /// ResponseKit's own main-queue work, but work that needs any other main-queue job can
        /// never finish. Reported at once, naming the response.
        public static let mainQueueBlocked = Kind(description: "mainQueueBlocked")
        /// A pending response's last resolver was released before it was resolved: the response
        /// failed with ``ResponseError/abandoned``, so its callbacks and waiters hear of it.
        public static let abandoned = Kind(description: "abandoned")
        /// A `flatMap` or `flatMapError` returned the response it makes; that response failed with
        /// ``ResponseError/returnedSelf`` instead of waiting for itself forever.
        public static let returnedSelf = Kind(description: "returnedSelf")
        /// A tracked response has been pending longer than the watchdog's threshold (see
        /// ``ResponseTracking/startWatchdog(threshold:interval:)``). Reported once per response,
        /// with its creation site, age, executor and number of observers; the response goes on.
        public static let longPending = Kind(description: "longPending")
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
/// ```swift
/// ResponseDiagnostics.handler = { diagnostic in logger.warning("\(diagnostic)") }
/// ```
public enum ResponseDiagnostics {
    private struct Settings: Sendable {
        var handler: @Sendable (ResponseDiagnostic) -> Void = ResponseDiagnostics.writeToStandardError
        /// Nanoseconds (not a `Duration`, which needs macOS 13 / iOS 16: blocking waits read it).
        var longWaitThresholdNanoseconds: UInt64 = 10_000_000_000
    }

    private static let settings = LockedBox.make(Settings())

    /// Receives every diagnostic. Called on the thread that noticed the problem.
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
            let (seconds, attoseconds) = max(newValue, .milliseconds(1)).components
            let (scaled, overflow) = UInt64(clamping: seconds).multipliedReportingOverflow(by: 1_000_000_000)
            let (nanoseconds, carry) = scaled.addingReportingOverflow(UInt64(attoseconds / 1_000_000_000))
            settings.withLock { $0.longWaitThresholdNanoseconds = overflow || carry ? .max : nanoseconds }
        }
    }

    /// ``longWaitThreshold`` in nanoseconds, at the package's platform floor.
    static var longWaitThresholdNanoseconds: UInt64 {
        settings.withLock { $0.longWaitThresholdNanoseconds }
    }

    /// The default handler: one line on standard error.
    ///
    /// - Parameter diagnostic: the problem to write.
    @Sendable
    public static func writeToStandardError(_ diagnostic: ResponseDiagnostic) {
        StandardError.writeLine(diagnostic.description)
    }

    static func report(_ kind: ResponseDiagnostic.Kind, _ message: String, file: String, line: UInt) {
        // One line, as promised, even when an error's description spans several.
        let oneLine = message.split(whereSeparator: \.isNewline).joined(separator: " ")
        let diagnostic = ResponseDiagnostic(kind: kind, message: oneLine, file: file, line: line)
        handler(diagnostic)
    }
}
