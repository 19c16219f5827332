import ResponseKit

@available(macOS 13, iOS 16, tvOS 16, watchOS 9, *)
extension ServiceManager {
    // MARK: - Registering

    /// Adds `service`; once the manager is started, starts it at once.
    ///
    /// Before ``start(file:line:)``, the service waits for it, behind the services registered earlier.
    /// While the manager is starting, it is started after those. Once the manager is running, it
    /// is started at once, and hears about the events sent after it has started.
    ///
    /// <!-- example: fragment @MainActor -->
    /// ```swift
    /// @MainActor final class SyncService: Service {
    ///     let name = "sync"
    ///     func start() -> Response<Void> { .succeeded() }
    ///     func stop() -> Response<Void> { .succeeded() }
    /// }
    ///
    /// let services = ServiceManager()
    /// try services.register(SyncService())
    ///     .onFailure { error in print("no sync: \(error)") }
    /// ```
    ///
    /// - Parameters:
    ///   - service: the service. Give each service a different ``Service/name``.
    ///   - file: the registration site, named by errors about the service. Leave the default.
    ///   - line: the registration site, named by errors about the service. Leave the default.
    /// - Returns: a response that succeeds once the service has started, and fails with a
    ///   ``ServiceFailure`` when it fails to start, times out, or is never started because the
    ///   manager began stopping first. Callbacks run on the main queue. The manager reports the
    ///   failure itself, so dropping the response is fine: no `unobservedFailure` follows.
    /// - Throws: ``ServiceManagerError/alreadyStopped(file:line:)`` once ``stop(file:line:)`` was
    ///   called, naming the service and this call's site: the service is not registered.
    @discardableResult
    public func register(
        _ service: any Service,
        file: StaticString = #fileID,
        line: UInt = #line
    ) throws -> Response<Void> {
        let site = CallSite(file: file, line: line)
        guard state.progress != .stopCalled else {
            throw ServiceManagerError.alreadyStopped(registering: service.name, at: site)
        }
        let (response, resolver) = makeStepResponse(file: file, line: line)
        if state.register(Entry(service: service, registrationSite: site, started: resolver)) { advance() }
        return response
    }

    // MARK: - Starting

    /// Starts the registered services one at a time, in registration order.
    ///
    /// Each service starts once the previous one has answered: succeeded, failed, or missed its
    /// ``ServiceTimeouts/start`` limit. A failure is reported and the next service starts anyway.
    ///
    /// <!-- example: fragment @MainActor -->
    /// ```swift
    /// let services = ServiceManager()        // and register the services
    /// do {
    ///     try services.start().value          // in a test or a command-line tool
    /// } catch let error as ServiceManagerError where error == .servicesFailed() {
    ///     print("missing: \(error.failedServiceNames)")
    /// }
    /// ```
    ///
    /// - Parameters:
    ///   - file: the call site, named by the errors this call throws or its response fails with.
    ///     Leave the default.
    ///   - line: the call site, named by the errors this call throws or its response fails with.
    ///     Leave the default.
    /// - Returns: a response that succeeds once every service registered before it finishes has
    ///   started, or fails with ``ServiceManagerError/servicesFailed(_:file:line:)`` listing the
    ///   services that did not; the others are running either way. Callbacks run on the main queue.
    /// - Throws: ``ServiceManagerError/alreadyStarted(file:line:)`` when called twice;
    ///   ``ServiceManagerError/alreadyStopped(file:line:)`` after ``stop(file:line:)``.
    @discardableResult
    public func start(file: StaticString = #fileID, line: UInt = #line) throws -> Response<Void> {
        let site = CallSite(file: file, line: line)
        switch state.progress {
        case .notStarted:
            break
        case .started:
            throw ServiceManagerError.alreadyStarted(file: site.file, line: site.line)
        case .stopCalled:
            throw ServiceManagerError.alreadyStopped(file: site.file, line: site.line)
        }
        let (response, resolver) = makeStepResponse(file: file, line: line)
        state.start(StepCall(resolver: resolver, site: site))
        advance()
        return response
    }

    /// Starts `entry`'s service, which the state has marked as starting, and records its answer.
    func startService(_ entry: Entry) {
        let response = entry.service.start()
        awaitAnswer(response, within: timeouts.start) { [self] result, missedTheLimit in
            switch result {
            case .success:
                state.entryStarted(entry, failure: nil)
                entry.started.succeed()
            case .failure(let error):
                let failure = ServiceFailure(
                    serviceName: entry.name,
                    step: .start,
                    error: error,
                    timeout: missedTheLimit ? timeouts.start : nil,
                    isSkipped: false,  // it was started, even if its own work was cancelled
                    registrationSite: entry.registrationSite
                )
                state.entryStarted(entry, failure: failure)
                entry.started.fail(failure)
                report(failure)
                // Before `advance()`: a runner that shuts down holds the waiting services first.
                startFailureObserver?(failure)
            }
            advance()
        }
    }

    /// Starts no more services: those waiting keep waiting (a start in flight still finishes),
    /// and ``stop(file:line:)`` skips them. For ``ServiceRunner``, which tells the running services
    /// `willTerminate` before it stops them: a service that started in between would run only to
    /// be stopped, without hearing `willTerminate`.
    func holdWaitingServices() {
        state.holdWaitingServices()
    }

    /// Fails the registrations of the services that were still waiting to start when stopping
    /// began (the state has marked them as skipped), then finishes the response of
    /// ``start(file:line:)`` if it was still pending.
    func skipWaitingServices(_ skipped: [(Entry, ServiceFailure)], thenFinish startCall: StepCall?) {
        for (entry, failure) in skipped {
            entry.started.fail(failure)
            // Its registration's response counts its failure as observed (see `makeStepResponse`),
            // so the handler must hear of it: nothing else would say that the service never ran.
            report(failure)
        }
        startCall?.finish()
    }
}
