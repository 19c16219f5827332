import ResponseKit

/// The blocking style with a heartbeat: waits for a response in short slices, so the caller can
/// redraw a spinner between them.
public nonisolated enum BlockingWait {
    /// Waits until `response` is done, calling `whileWaiting` each time a slice of `interval`
    /// passes without an answer.
    ///
    /// Each slice is `Response.wait(timeout:)`, which gives up on waiting but never cancels the
    /// response. On the main thread each slice keeps the main queue running.
    ///
    /// ```swift
    /// let result = BlockingWait.result(of: activate.execute(request), checkingEvery: .milliseconds(100)) { slices in
    ///     spinner.tick(frame: slices, waited: ContinuousClock.now - started)
    /// }
    /// ```
    ///
    /// - Parameters:
    ///   - response: what to wait for.
    ///   - interval: how long each slice lasts.
    ///   - whileWaiting: called after each slice that ended without an answer, with how many have
    ///     so far (1, 2, ...), on the waiting thread.
    /// - Returns: the response's result.
    public static func result<Value>(
        of response: Response<Value>,
        checkingEvery interval: Duration,
        whileWaiting: (Int) -> Void
    ) -> Result<Value, any Error> {
        var slices = 0
        while true {
            do {
                return .success(try response.wait(timeout: interval))
            } catch let error as ResponseError where error == .timedOut {
                // Our slice ended (a response resolved with `timedOut` by its work is told apart by `isDone`).
                if response.isDone { return response.result }
                slices += 1
                whileWaiting(slices)
            } catch {
                return .failure(error)
            }
        }
    }
}
