/// Something that happened to the whole app, which every running service hears about.
///
/// The events mirror `UIApplicationDelegate`'s, so an app delegate can forward what UIKit tells
/// it; on Linux there is no UIKit, and ``ServiceRunner`` sends them itself. A
/// ``ServiceManager`` delivers each event with ``ServiceManager/send(_:file:line:)``.
///
/// `LifecycleEvent` is a struct with static members rather than an enum, so that new events can
/// be added without breaking anyone's `switch`, and so that an app can define events of its own:
///
/// ```swift
/// import ResponseKit
/// import ResponseKitServices
///
/// extension LifecycleEvent {
///     static let didReceiveSignificantTimeChange = LifecycleEvent(name: "didReceiveSignificantTimeChange")
/// }
///
/// @MainActor final class JournalService: Service {
///     let name = "journal"
///     func start() -> Response<Void> { .succeeded() }
///     func handle(_ event: LifecycleEvent) -> Response<Void> {
///         switch event {
///         case .didEnterBackground, .willTerminate: return flush()
///         default: return .succeeded()
///         }
///     }
///     func stop() -> Response<Void> { flush() }
///     private func flush() -> Response<Void> { Response(on: .global()) { print("saved") } }
/// }
/// ```
public struct LifecycleEvent: Hashable, Sendable, CustomStringConvertible {
    /// The event's name, such as `willTerminate`. Two events are equal when their names are.
    public let name: String

    /// Makes an event; use it for events of your own. The standard ones are static members.
    ///
    /// - Parameter name: a name no standard event uses, such as `didReceiveSignificantTimeChange`.
    public init(name: String) {
        self.name = name
    }

    /// The app finished launching and its services are started. The first event an app sends.
    public static let didFinishLaunching = LifecycleEvent(name: "didFinishLaunching")
    /// The app became active: it is in the foreground (or, for a server, serving).
    public static let didBecomeActive = LifecycleEvent(name: "didBecomeActive")
    /// The app is about to stop being active, for example because a call or alert interrupts it.
    public static let willResignActive = LifecycleEvent(name: "willResignActive")
    /// The app went to the background. Save state: it may be suspended or killed without notice.
    public static let didEnterBackground = LifecycleEvent(name: "didEnterBackground")
    /// The app is about to come back to the foreground.
    public static let willEnterForeground = LifecycleEvent(name: "willEnterForeground")
    /// The system is short of memory: drop caches and anything else that can be rebuilt.
    /// ``ServiceRunner`` sends it from the kernel's memory-pressure notifications on Linux (see
    /// ``ServiceRunner/MemoryPressureWatch``) and from Dispatch's on Apple platforms, at most once
    /// per window.
    public static let didReceiveMemoryWarning = LifecycleEvent(name: "didReceiveMemoryWarning")
    /// The app was asked to reload its configuration: read the files again, reopen the logs,
    /// rotate what needs rotating, without a restart. ``ServiceRunner`` sends it on SIGHUP (what
    /// `systemctl reload` sends to a `Type=notify-reload` unit), or on ``ServiceRunner/requestReload()``,
    /// and waits for every answer within ``ServiceTimeouts/reload``. A service that fails to reload
    /// is reported and keeps running, with the configuration it had.
    public static let didReceiveReloadRequest = LifecycleEvent(name: "didReceiveReloadRequest")
    /// The app is about to end: flush what must not be lost. Services are stopped after it.
    public static let willTerminate = LifecycleEvent(name: "willTerminate")

    /// The standard events, in the order an app typically meets them.
    public static let standard: [LifecycleEvent] = [
        .didFinishLaunching, .didBecomeActive, .willResignActive, .didEnterBackground,
        .willEnterForeground, .didReceiveMemoryWarning, .didReceiveReloadRequest, .willTerminate,
    ]

    /// The event's ``name``.
    public var description: String { name }
}
