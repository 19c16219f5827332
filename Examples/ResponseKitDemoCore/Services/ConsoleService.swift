import ResponseKit
import ResponseKitServices

/// The command line as a service: it starts reading commands when the app becomes active, that
/// is once every other service has started, and stops reading when the app stops.
///
/// So the app never takes a command before analytics can record it, and `ServiceRunner` owns
/// the whole life of the process: Ctrl-C and `quit` end it the same way. Its stop finishes once
/// the command in flight has finished, so a signal never cuts a save short: the services stop,
/// and the process exits, only after it.
public final class ConsoleService: Service {
    /// `console`.
    public let name = "console"
    private let onActive: () -> Void
    private let onStop: () -> Response<Void>
    private var isActive = false

    /// Makes the service.
    ///
    /// - Parameters:
    ///   - onActive: starts the command line; called once, on the first `didBecomeActive`.
    ///   - onStop: stops it; called when the service stops. Its response finishes once the
    ///     command in flight, if any, has finished.
    public init(onActive: @escaping () -> Void, onStop: @escaping () -> Response<Void>) {
        self.onActive = onActive
        self.onStop = onStop
    }

    /// Nothing to prepare.
    public func start() -> Response<Void> {
        .succeeded((), on: .immediate)
    }

    /// Starts the command line on the first `didBecomeActive`.
    public func handle(_ event: LifecycleEvent) -> Response<Void> {
        if event == .didBecomeActive, !isActive {
            isActive = true
            onActive()
        }
        return .succeeded((), on: .immediate)
    }

    /// Stops the command line.
    ///
    /// - Returns: a response that succeeds once the command in flight, if any, has finished.
    public func stop() -> Response<Void> {
        onStop()
    }
}
