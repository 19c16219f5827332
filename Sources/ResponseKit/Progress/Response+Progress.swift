extension Response {
    /// How far the work has come, from 0 to 1: the latest fraction its resolver reported
    /// (``Resolver/reportProgress(_:)``), 1 once the response succeeded, 0 when none was reported.
    /// Never blocks.
    public var progress: Double {
        if isSuccessful { return 1 }
        return read { machine in machine.reportedProgress } ?? 0
    }

    /// Calls `callback` with the work's progress, from 0 to 1, on the response's ``executor``.
    ///
    /// Deliveries are coalesced (while one is on its way, later reports only change the value it
    /// hands out), never go backwards, and end at 1 when the response succeeds, before its
    /// success callbacks run. An observer that arrives late first hears the latest value others
    /// heard (or, while a delivery is on its way, the newer value that delivery hands out); on a
    /// response that already succeeded, it hears 1.
    ///
    /// <!-- example: fragment -->
    /// ```swift
    /// func download(_ url: URL) -> Response<URL> {   // reports progress as it goes
    ///     let (response, resolver) = Response<URL>.pending()
    ///     DispatchQueue.global().async {
    ///         resolver.reportProgress(0.5)
    ///         resolver.succeed(URL(fileURLWithPath: "/tmp/photo.jpg"))
    ///     }
    ///     return response
    /// }
    ///
    /// download(URL(string: "https://example.com/photo.jpg")!)
    ///     .onProgress { fraction in print("\(Int(fraction * 100)) %") }
    ///     .onCompletion { file in print("saved \(file)") }
    /// ```
    ///
    /// - Parameter callback: receives each fraction.
    /// - Returns: this response, to chain further callbacks.
    @discardableResult
    public func onProgress(_ callback: @escaping @Sendable (Double) -> Void) -> Self {
        addProgressObserver(.sendable(callback))
        return self
    }

    // MARK: - The engine's side

    /// Records progress reported by the work: ignored unless it is a finite number; clamped to
    /// 0...1; ignored when the response is done or when it goes backwards.
    func reportProgress(_ fraction: Double) {
        guard fraction.isFinite, flags & ResponseFlags.done == 0 else { return }
        let clamped = Swift.min(Swift.max(fraction, 0), 1)
        if let channel = apply({ machine, _ in ResponseTransition(machine.reportProgress(clamped)) }) {
            scheduleProgressDelivery(channel)
        }
    }

    func addProgressObserver(_ observer: ProgressObserver) {
        let action = apply { machine, _ in ResponseTransition(machine.addProgressObserver(observer)) }
        switch action {
        case .stored(let heardAlready, let channel, let onFirstObserver):
            onFirstObserver?()
            if let heardAlready { deliverProgress(heardAlready, to: observer) }
            if let channel { scheduleProgressDelivery(channel) }
        case .finished:
            deliverProgress(1, to: observer)
        case .none:
            break
        }
    }

    /// Runs `hook` when the first progress observer arrives (how `all` follows its inputs' progress
    /// only when someone follows its own). Nothing happens once the response is done.
    func whenProgressIsFirstObserved(_ hook: @escaping @Sendable () -> Void) {
        _ = apply { machine, _ in ResponseTransition(machine.setOnFirstProgressObserver(hook)) }
    }

    /// Hands `channel`'s latest value to its observers on the executor: inline for
    /// ``ResponseExecutor/immediate``, as one job otherwise, which takes whatever was reported by
    /// the time it runs.
    @usableFromInline
    func scheduleProgressDelivery(_ channel: ProgressChannel) {
        let delivery: @Sendable () -> Void = { [self] in
            guard let (value, observers) = apply({ _, _ in ResponseTransition(channel.takeDelivery()) }) else { return }
            for observer in observers {
                switch observer {
                case .sendable(let body), .inline(let body): body(value)
                case .mainActor(let body): MainActorDelivery.run(after: .immediate) { body(value) }
                }
            }
        }
        if runsCallbacksInline { delivery() } else { executor.run(delivery) }
    }

    /// Hands `value` to one observer: what a late observer hears at once.
    func deliverProgress(_ value: Double, to observer: ProgressObserver) {
        switch observer {
        case .inline(let body):
            body(value)
        case .sendable(let body):
            if runsCallbacksInline { body(value) } else { executor.run { body(value) } }
        case .mainActor(let body):
            MainActorDelivery.run(after: executor) { body(value) }
        }
    }
}

extension Resolver {
    /// Reports how far the work has come, as a fraction from 0 to 1; callers observe it with
    /// ``Response/onProgress(_:)``.
    ///
    /// Cheap to call often: deliveries are coalesced. A fraction below one reported before is
    /// ignored (progress never goes backwards), values outside 0...1 are clamped, and a value that
    /// is not a finite number is ignored. The response reports 1 itself when it succeeds.
    ///
    /// <!-- example: fragment -->
    /// ```swift
    /// func upload(_ chunk: Data) throws { print("sending \(chunk.count) bytes") }
    /// let chunks = [Data(count: 1024), Data(count: 1024), Data(count: 512)]
    /// let (response, resolver) = Response<Void>.pending()
    ///
    /// for (index, chunk) in chunks.enumerated() {
    ///     try upload(chunk)
    ///     resolver.reportProgress(completed: index + 1, of: chunks.count)
    /// }
    /// resolver.succeed()
    /// ```
    ///
    /// - Parameter fraction: how much of the work is done.
    public func reportProgress(_ fraction: Double) {
        response.reportProgress(fraction)
    }

    /// Reports progress as `completed` units of `total`. Ignored when `total` is not positive.
    ///
    /// - Parameters:
    ///   - completed: the units done (clamped to 0...total).
    ///   - total: the units of the whole work.
    public func reportProgress(completed: Int, of total: Int) {
        guard total > 0 else { return }
        response.reportProgress(Double(Swift.min(Swift.max(completed, 0), total)) / Double(total))
    }
}

extension MainActorCallbacks {
    /// Runs `body` on the main actor with the work's progress, from 0 to 1; see
    /// ``Response/onProgress(_:)`` for how deliveries are coalesced.
    ///
    /// - Parameter body: receives each fraction.
    /// - Returns: this view, to chain further callbacks.
    @discardableResult
    public func onProgress(_ body: @escaping @MainActor (Double) -> Void) -> Self {
        response.addProgressObserver(.mainActor(body))
        return self
    }
}
