// Time is a `Duration`, which needs macOS 13 / iOS 16: the whole extension carries that.
@available(macOS 13, iOS 16, tvOS 16, watchOS 9, *)
extension Response {
    /// Fails with ``ResponseError/deadlineExceeded`` unless this response finishes within `limit`,
    /// and then cancels this response (unless someone else still waits for it: another derived
    /// response, a task, a callback, a blocking read), so the work can stop.
    ///
    /// <!-- example: fragment -->
    /// ```swift
    /// func fetchProfile() -> Response<String> { Response(on: .global()) { "Ada" } }
    ///
    /// let profile = fetchProfile().timeout(after: .seconds(5))
    /// profile.onFailure { error in
    ///     if (error as? ResponseError) == .deadlineExceeded { print("the network is slow") }
    /// }
    /// ```
    ///
    /// Not to be confused with ``wait(timeout:)``, whose ``ResponseError/timedOut`` says only that
    /// a blocking wait gave up, while the response goes on.
    ///
    /// - Parameters:
    ///   - limit: how long to wait for this response.
    ///   - scheduler: the source of time; pass `ManualScheduler` in tests.
    ///   - file: the creation site, for diagnostics. Leave the default.
    ///   - line: the creation site, for diagnostics. Leave the default.
    /// - Returns: a response with this response's outcome, or ``ResponseError/deadlineExceeded``.
    public func timeout(
        after limit: Duration,
        scheduler: any ResponseScheduler = DispatchScheduler(),
        file: StaticString = #fileID,
        line: UInt = #line
    ) -> Response<Value> {
        let derived: Response<Value> = makeDerived(file: file, line: line)
        // The claim first: a timer due at once may fire inside `schedule` (a scheduler may run it
        // there), and the derived response it finishes gives up its claim on this one.
        addDerivedObserver(.observer { result, completion in derived.finishAsLastAct(with: result, of: &completion) })
        let timer = scheduler.schedule(after: limit) {
            derived.finish(with: .failure(ResponseError.deadlineExceeded), how: .racing)
        }
        // A clean-up, not an observer: a timed-out response nobody looks at is still reported.
        derived.addInternalObserver(.cleanup { timer.cancel() })
        return derived
    }

    /// Passes this response's outcome on `interval` after it arrives. Cancellation passes at once.
    ///
    /// <!-- example: fragment -->
    /// ```swift
    /// func saveDraft() -> Response<Void> { Response(on: .global()) { print("saving") } }
    ///
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
        let derived: Response<Value> = makeDerived(file: file, line: line)
        addDerivedObserver(
            .observer { result, completion in
                if case .failure(let error) = result, error is CancellationError {
                    derived.finishAsLastAct(with: result, of: &completion)
                    return
                }
                let timer = scheduler.schedule(after: interval) { derived.finish(with: result, how: .racing) }
                derived.addObserverDuringCompletion(.cleanup { timer.cancel() }, context: &completion)
            }
        )
        return derived
    }
}
