import ResponseKit

/// Something set up once when the app starts and kept for its whole life: analytics, crash
/// reporting, sync, a cache.
///
/// Each service gets an object of its own instead of a few lines scattered through the app's entry
/// point. Register it with a ``ServiceManager`` in the composition root; the manager starts it
/// once, tells it about every ``LifecycleEvent``, and stops it when the app ends.
///
/// Every step answers with a `Response<Void>`, because starting, handling an event and stopping
/// may all take time (open a database, flush a buffer) and may fail. Succeed the response when
/// the step is done, fail it when it could not be done. A step that finishes at once returns
/// `.succeeded()`. Return the response *at once* and do slow work elsewhere: the methods run on
/// the main actor, and a service that blocks it blocks the app.
///
/// <!-- example: fragment -->
/// ```swift
/// nonisolated struct CrashReporter: Sendable {   // an SDK, stubbed; used off the main actor
///     static func install() throws -> CrashReporter { CrashReporter() }
///     func dropBreadcrumbs() {}
///     func uninstall() {}
/// }
///
/// @MainActor final class CrashReportingService: Service {
///     let name = "crash-reporting"
///     private var reporter: CrashReporter?
///
///     func start() -> Response<Void> {
///         let (started, resolver) = Response<Void>.pending()
///         Response<CrashReporter>(on: .global()) { try CrashReporter.install() }   // off the main actor
///             .mainActor
///             .onCompletion { reporter in          // back on the main actor
///                 self.reporter = reporter
///                 resolver.succeed()
///             }
///             .onFailure { error in resolver.fail(error) }
///         return started
///     }
///
///     func handle(_ event: LifecycleEvent) -> Response<Void> {
///         if event == .didReceiveMemoryWarning { reporter?.dropBreadcrumbs() }
///         return .succeeded()
///     }
///
///     func stop() -> Response<Void> {
///         reporter?.uninstall()
///         return .succeeded()
///     }
/// }
/// ```
///
/// ## Threading
/// The protocol is `@MainActor`: a conforming class is main-actor isolated, so it keeps its
/// state in plain stored properties, with no lock, and `@MainActor` code (a view model, an app
/// delegate) calls it without `await`. The manager calls ``start()``, ``handle(_:)`` and
/// ``stop()`` on the main actor. The responses they return may use any executor and may be
/// finished from any thread.
///
/// ## Failure
/// A failed response, or one that does not finish within the manager's ``ServiceTimeouts``,
/// is reported by the service's ``name`` and does not keep other services from starting, hearing
/// about events or stopping. When the manager gives up waiting it cancels the response, so the
/// service can stop the work through `Resolver.onCancel(_:)`.
@MainActor
public protocol Service {
    /// A short name that identifies the service in failure reports, such as `analytics`.
    /// Give each registered service a different name.
    var name: String { get }

    /// Starts the service. Called once, before any event.
    ///
    /// - Returns: a response that succeeds once the service is ready, or fails when it cannot
    ///   start; a service that fails to start hears about no event and is not stopped.
    func start() -> Response<Void>

    /// Reacts to something that happened to the whole app.
    ///
    /// Called for every event sent while the service is running, including events that a
    /// previous call has not finished handling. The default implementation ignores the event.
    ///
    /// - Parameter event: what happened.
    /// - Returns: a response that succeeds once the event is handled, or fails when handling it
    ///   went wrong. The service keeps running either way.
    func handle(_ event: LifecycleEvent) -> Response<Void>

    /// Stops the service: release its resources and save what must be kept. Called once, after
    /// the last event, only when ``start()`` succeeded.
    ///
    /// - Returns: a response that succeeds once the service has stopped, or fails when it could
    ///   not stop cleanly.
    func stop() -> Response<Void>
}

extension Service {
    /// Ignores the event: answers with a response that has already succeeded.
    ///
    /// - Parameter event: the event, unused.
    /// - Returns: a done, successful response that delivers its callbacks inline.
    public func handle(_ event: LifecycleEvent) -> Response<Void> {
        .succeeded((), on: .immediate)
    }
}
