extension Response {
    /// Waits for every one of `responses`, whatever their outcomes, and succeeds with each
    /// outcome as a `Result`, in the order of `responses` (PromiseKit's `when(resolved:)`, the
    /// `Promise.allSettled` of JavaScript).
    ///
    /// `on:` is the executor that delivers the response's callbacks (``ResponseExecutor/main`` by
    /// default), not where its inputs run.
    ///
    /// It never fails on account of its inputs: a failed or cancelled input is a `.failure` in
    /// the array. Only cancelling this response fails it (with `CancellationError`), and that
    /// cancels the inputs still pending (unless something else still waits on them). An empty
    /// collection succeeds at once with an empty array.
    ///
    /// <!-- example: fragment -->
    /// ```swift
    /// func upload(_ photo: String) -> Response<Void> { Response(on: .global()) { print("uploading \(photo)") } }
    /// let photos = ["ada.jpg", "grace.jpg"]
    ///
    /// Response.allSettled(photos.map { upload($0) }).onCompletion { outcomes in
    ///     let failed = outcomes.filter { if case .failure = $0 { true } else { false } }.count
    ///     print("\(outcomes.count - failed) uploaded, \(failed) failed")
    /// }
    /// ```
    ///
    /// Waiting on an input counts as observing its failure, so inputs that fail are not reported
    /// as unobserved failures. Its progress (``Response/onProgress(_:)``) is the mean of the
    /// inputs' progress, an input counting as done once it finishes, whatever its outcome; the
    /// inputs' progress is followed only once someone observes it.
    ///
    /// - Parameters:
    ///   - responses: the responses to wait for.
    ///   - executor: where the combined response delivers; ``ResponseExecutor/main`` by default.
    ///   - file: the creation site, for diagnostics. Leave the default.
    ///   - line: the creation site, for diagnostics. Leave the default.
    /// - Returns: a response with every outcome, in order.
    /// - Complexity: O(*n*) for *n* responses.
    public static func allSettled<Element: Sendable>(
        _ responses: some Collection<Response<Element>>,
        on executor: ResponseExecutor = .main,
        file: StaticString = #fileID,
        line: UInt = #line
    ) -> Response<Value> where Value == [Result<Element, any Error>] {
        let outcomes = Collector<Result<Element, any Error>>(count: responses.count)
        let inputs = Array(responses)
        let settled = combining(inputs, on: executor, file: file, line: line, whenEmpty: .success([])) {
            index, settled in
            .observer { result, completion in
                if let results = outcomes.store(result, at: index) {
                    settled.finishNested(with: .success(results), in: &completion)
                }
            }
        }
        settled.followProgress(of: inputs, countingFailuresAsDone: true)
        return settled
    }

    /// ``allSettled(_:on:file:line:)`` for responses listed one by one: `Response.allSettled(a, b)`.
    ///
    /// `on:` is the executor that delivers the response's callbacks (``ResponseExecutor/main`` by
    /// default), not where its inputs run.
    ///
    /// - Parameters:
    ///   - first: the first response.
    ///   - rest: the others.
    ///   - executor: where the combined response delivers; ``ResponseExecutor/main`` by default.
    ///   - file: the creation site, for diagnostics. Leave the default.
    ///   - line: the creation site, for diagnostics. Leave the default.
    /// - Returns: a response with every outcome, in order.
    public static func allSettled<Element: Sendable>(
        _ first: Response<Element>,
        _ rest: Response<Element>...,
        on executor: ResponseExecutor = .main,
        file: StaticString = #fileID,
        line: UInt = #line
    ) -> Response<Value> where Value == [Result<Element, any Error>] {
        allSettled([first] + rest, on: executor, file: file, line: line)
    }
}
