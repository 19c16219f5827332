import Foundation
import ResponseKit
import ResponseKitServices

/// A service that records analytics events, and the app's lifecycle events, in memory, and
/// appends them to a log file when the app goes to the background or is about to terminate,
/// and when it stops.
///
/// ```swift
/// let analytics = AnalyticsService(logFile: dataDirectory + "/analytics.log")
/// try services.register(analytics)
/// analytics.track("command add")
/// ```
///
/// Each line is `<ISO 8601 time>\t<event>`. Writing is safe: see ``EventLogFile``. A flush that
/// fails puts its events back at the front of the buffer, so the next flush tries them again
/// (a write that failed half-way may then repeat some lines: delivery is at least once).
///
/// Track what happened, never what was typed: event names must not carry passwords or tokens.
///
/// The services tests run it in `Tests/Fixtures/ServiceRunnerFixture`, the process they signal.
public final class AnalyticsService: Service {
    /// `analytics`.
    public let name = "analytics"
    /// The events that trigger a flush.
    public let flushEvents: Set<LifecycleEvent>
    private let file: EventLogFile
    /// Lines not yet written, oldest first.
    public private(set) var buffer: [String] = []
    private let now: @MainActor () -> Date

    /// Makes the service; nothing touches the file before ``start()``.
    ///
    /// - Parameters:
    ///   - logFile: the path of the log; created on start, appended to afterwards.
    ///   - flushEvents: the events after which the buffer is written out.
    ///   - now: the clock that stamps events; tests pass a fixed one.
    public init(
        logFile: String,
        flushEvents: Set<LifecycleEvent> = [.didEnterBackground, .willTerminate],
        now: @escaping @MainActor () -> Date = { Date.now }
    ) {
        self.file = EventLogFile(path: logFile)
        self.flushEvents = flushEvents
        self.now = now
    }

    /// The log file's path.
    public var logFile: String { file.path }

    /// Records `event` now; it is written at the next flush.
    ///
    /// - Parameter event: what happened, such as `command add`.
    public func track(_ event: String) {
        buffer.append("\(now().ISO8601Format())\t\(event)")
    }

    /// Creates the log file, or fails when it cannot be written.
    public func start() -> Response<Void> {
        file.prepare()
    }

    /// Records the event; writes the buffer out after a ``flushEvents`` event.
    public func handle(_ event: LifecycleEvent) -> Response<Void> {
        track(event.name)
        return flushEvents.contains(event) ? flush() : .succeeded((), on: .immediate)
    }

    /// Writes out what is left.
    public func stop() -> Response<Void> {
        flush()
    }

    /// Writes the buffer to the file.
    ///
    /// - Returns: a response that succeeds once the lines are on disk, or fails once they are
    ///   back in the buffer, so whoever waits on it sees the buffer as the outcome left it.
    public func flush() -> Response<Void> {
        let lines = buffer
        buffer = []
        let (flushed, resolver) = Response<Void>.pending(on: .immediate)
        file.append(lines).mainActor.onResult { result in  // on the main actor
            if case .failure = result { self.buffer.insert(contentsOf: lines, at: 0) }
            resolver.resolve(with: result)
        }
        return flushed
    }
}
