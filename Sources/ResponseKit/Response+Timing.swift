extension Response {
    /// Fails with ``ResponseError/timedOut`` unless this response finishes within `limit`, and then
    /// cancels this response (unless another derived response still waits on it), so the work
    /// can stop.
    ///
    /// ```swift
    /// let profile = fetchProfile().timeout(after: .seconds(5))
    /// profile.onFailure { error in
    ///     if (error as? ResponseError) == .timedOut { showSlowNetworkHint() }
    /// }
    /// ```
    ///
    /// - Parameters:
    ///   - limit: how long to wait for this response.
    ///   - scheduler: the source of time; pass `ManualScheduler` in tests.
    ///   - file: the creation site, for diagnostics. Leave the default.
    ///   - line: the creation site, for diagnostics. Leave the default.
    /// - Returns: a response with this response's outcome, or the timeout failure.
    public func timeout(
        after limit: Duration,
        scheduler: any ResponseScheduler = DispatchScheduler(),
        file: StaticString = #fileID,
        line: UInt = #line
    ) -> Response<Value> {
        let (derived, resolver): (Response<Value>, ResponseKit.Resolver<Value>) =
            makeDerived(claiming: self, file: file, line: line)
        let timer = scheduler.schedule(after: limit) {
            resolver.resolveIfPending(with: .failure(ResponseError.timedOut))
        }
        derived.observe { _ in timer.cancel() }
        observe { result in resolver.resolveIfPending(with: result) }
        return derived
    }

    /// Passes this response's outcome on `interval` after it arrives. Cancellation passes at once.
    ///
    /// ```swift
    /// let banner = saveDraft().delay(by: .milliseconds(300))   // let the spinner be seen
    /// ```
    ///
    /// - Parameters:
    ///   - interval: how long to hold the outcome.
    ///   - scheduler: the source of time; pass `ManualScheduler` in tests.
    ///   - file: the creation site, for diagnostics. Leave the default.
    ///   - line: the creation site, for diagnostics. Leave the default.
    /// - Returns: a response with this response's outcome, later.
    public func delay(
        by interval: Duration,
        scheduler: any ResponseScheduler = DispatchScheduler(),
        file: StaticString = #fileID,
        line: UInt = #line
    ) -> Response<Value> {
        let (derived, resolver): (Response<Value>, ResponseKit.Resolver<Value>) =
            makeDerived(claiming: self, file: file, line: line)
        observe { result in
            guard !Self.isCancellation(result) else {
                resolver.resolveIfPending(with: result)
                return
            }
            let timer = scheduler.schedule(after: interval) { resolver.resolveIfPending(with: result) }
            derived.observe { _ in timer.cancel() }
        }
        return derived
    }

    /// Another spelling of ``delay(by:scheduler:file:line:)``.
    ///
    /// - Parameters:
    ///   - interval: how long to hold the outcome.
    ///   - scheduler: the source of time; pass `ManualScheduler` in tests.
    ///   - file: the creation site, for diagnostics. Leave the default.
    ///   - line: the creation site, for diagnostics. Leave the default.
    /// - Returns: a response with this response's outcome, later.
    public func delay(
        _ interval: Duration,
        scheduler: any ResponseScheduler = DispatchScheduler(),
        file: StaticString = #fileID,
        line: UInt = #line
    ) -> Response<Value> {
        delay(by: interval, scheduler: scheduler, file: file, line: line)
    }
}
