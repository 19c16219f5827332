import ResponseKit
import ResponseKitServices

/// A fixture service that prints every call it gets, so the test can check the order.
///
/// Lines: `start <name>`, `event <name> <event>`, `stop <name>`; `ready` after
/// `didBecomeActive` when it is the announcer.
final class EchoService: Service {
    /// How the service answers ``stop()``.
    enum StopAnswer {
        case succeed
        case fail
        /// Never answers.
        case hang
    }

    struct ToldToFail: Error, CustomStringConvertible {
        var description: String { "the fixture was told to fail" }
    }

    let name: String
    private let startFails: Bool
    private let stopAnswer: StopAnswer
    /// Called after the service said `ready`; `nil` unless it is the announcer.
    private let onReady: (@MainActor () -> Void)?
    /// Kept so that a hanging stop stays pending rather than being released unanswered.
    private var hangingStop: Response<Void>.Resolver?

    init(
        name: String,
        startFails: Bool = false,
        stopAnswer: StopAnswer = .succeed,
        onReady: (@MainActor () -> Void)? = nil
    ) {
        self.name = name
        self.startFails = startFails
        self.stopAnswer = stopAnswer
        self.onReady = onReady
    }

    func start() -> Response<Void> {
        say("start \(name)")
        return startFails ? .failed(ToldToFail(), on: .immediate) : .succeeded((), on: .immediate)
    }

    func handle(_ event: LifecycleEvent) -> Response<Void> {
        say("event \(name) \(event)")
        if let onReady, event == .didBecomeActive {
            say("ready")
            onReady()
        }
        return .succeeded((), on: .immediate)
    }

    func stop() -> Response<Void> {
        say("stop \(name)")
        switch stopAnswer {
        case .succeed:
            return .succeeded((), on: .immediate)
        case .fail:
            return .failed(ToldToFail(), on: .immediate)
        case .hang:
            let (response, resolver) = Response<Void>.pending(on: .immediate)
            hangingStop = resolver  // kept, never resolved: the stop hangs (a dropped resolver would fail it)
            return response
        }
    }
}
