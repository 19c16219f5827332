import ResponseKit

@available(macOS 13, iOS 16, tvOS 16, watchOS 9, *)
extension ServiceManager {
    /// Tells every running service about `event`, in registration order, on the main actor.
    ///
    /// Each running service's ``Service/handle(_:)`` is called in turn, before this method
    /// returns, without waiting for the previous service's answer: a slow or hanging service
    /// delays no one. Services still starting, or registered later, do not hear about it. When
    /// ``stop(file:line:)`` is called during this call (by a service, or by the failure handler), the
    /// services not yet told are not told: no service hears an event after ``stop(file:line:)``.
    ///
    /// <!-- example: fragment -->
    /// ```swift
    /// @MainActor final class AppDelegate {   // in an iOS app, your UIApplicationDelegate
    ///     let services = ServiceManager()
    ///     func applicationDidEnterBackground() {   // (_ application: UIApplication) in UIKit
    ///         _ = try? services.send(.didEnterBackground)
    ///     }
    /// }
    /// ```
    ///
    /// - Parameters:
    ///   - event: what happened to the app.
    ///   - file: the call site, named by the errors this call throws or its response fails with.
    ///     Leave the default.
    ///   - line: the call site, named by the errors this call throws or its response fails with.
    ///     Leave the default.
    /// - Returns: a response that succeeds once every service has handled the event, or fails
    ///   with ``ServiceManagerError/servicesFailed(_:file:line:)`` listing the services whose
    ///   response failed or missed the ``ServiceTimeouts/event`` limit (``ServiceTimeouts/reload``
    ///   for ``LifecycleEvent/didReceiveReloadRequest``). Those services keep
    ///   running. Callbacks run on the main queue.
    /// - Throws: ``ServiceManagerError/notStarted(file:line:)`` before ``start(file:line:)``;
    ///   ``ServiceManagerError/alreadyStopped(file:line:)`` once ``stop(file:line:)`` was called.
    @discardableResult
    public func send(
        _ event: LifecycleEvent,
        file: StaticString = #fileID,
        line: UInt = #line
    ) throws -> Response<Void> {
        let site = CallSite(file: file, line: line)
        switch state.progress {
        case .notStarted:
            throw ServiceManagerError.notStarted(file: site.file, line: site.line)
        case .stopCalled:
            throw ServiceManagerError.alreadyStopped(file: site.file, line: site.line)
        case .started:
            break
        }
        let recipients = state.entries.filter(\.status.isRunning)
        let limit = timeouts.limit(for: event)
        let (response, resolver) = makeStepResponse(file: file, line: line)
        let broadcast = Broadcast(recipients: recipients.count, resolver: resolver, site: site)
        for (index, entry) in recipients.enumerated() {
            // A service may answer inline, and a service or the failure handler may then call
            // `stop()`, which can stop the services not yet told: they must hear nothing more.
            guard state.progress == .started else {
                broadcast.record(nil, at: index)
                continue
            }
            let answer = entry.service.handle(event)
            awaitAnswer(answer, within: limit) { [self] result, missedTheLimit in
                var failure: ServiceFailure?
                if case .failure(let error) = result {
                    failure = ServiceFailure(
                        serviceName: entry.name,
                        step: .event(event),
                        error: error,
                        timeout: missedTheLimit ? limit : nil,
                        isSkipped: false,
                        registrationSite: entry.registrationSite
                    )
                }
                broadcast.record(failure, at: index)
                if let failure { report(failure) }
            }
        }
        broadcast.finishIfAnswered()
        return response
    }
}

/// The answers to one event: finishes the response of ``ServiceManager/send(_:file:line:)`` once every
/// recipient has answered.
@MainActor
@available(macOS 13, iOS 16, tvOS 16, watchOS 9, *)
private final class Broadcast {
    private var unanswered: Int
    /// Failures by recipient index, so that the error lists them in registration order.
    private var failures: [Int: ServiceFailure] = [:]
    private let resolver: Resolver<Void>
    /// Where the app called `send(_:file:line:)`, named by the error.
    private let site: CallSite
    /// Whether every `handle(_:)` call has been made; answers may arrive before that.
    private var isSent = false

    init(recipients: Int, resolver: Resolver<Void>, site: CallSite) {
        self.unanswered = recipients
        self.resolver = resolver
        self.site = site
    }

    func record(_ failure: ServiceFailure?, at index: Int) {
        unanswered -= 1
        failures[index] = failure
        if isSent { finishIfAnswered() }
    }

    func finishIfAnswered() {
        isSent = true
        guard unanswered == 0 else { return }
        if failures.isEmpty {
            resolver.succeed()
        } else {
            let ordered = failures.sorted { $0.key < $1.key }.map(\.value)
            resolver.fail(ServiceManagerError.servicesFailed(ordered, file: site.file, line: site.line))
        }
    }
}
