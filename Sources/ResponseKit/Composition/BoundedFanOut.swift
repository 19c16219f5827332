/// The loop behind ``Response/all(_:maxInFlight:on:file:line:_:)``: starts a response per element,
/// never more than `maxInFlight` pending at once, and gathers their values in order.
///
/// One thread at a time starts responses (the *pump*). A response that finishes while another
/// thread pumps, or inline while the pump itself starts it (already done), only lowers the count
/// in flight: the pump looks again before it stops. So the stack stays flat however many
/// responses finish at once, and no finish is missed: whoever finds nobody pumping pumps.
///
/// The result holds a claim on each response in flight, taken when it starts and given back when
/// it finishes, so that stopping (the first failure, or the result's cancellation) cancels the
/// ones still pending unless something else waits on them, and finished ones are not kept.
final class BoundedFanOut<Element: Sendable, Output: Sendable>: Sendable {
    private struct State {
        /// The index of the next element to start.
        var next = 0
        /// Started and not yet finished, including those being started.
        var running = 0
        /// The responses in flight, by element index: the claims to give back.
        var inFlight: [Int: Response<Output>] = [:]
        /// How many succeeded.
        var succeeded = 0
        /// Whether a thread is starting responses.
        var isPumping = false
        /// A failure or a cancellation: start no more, drop whatever finishes.
        var isStopped = false
    }

    private enum Finish {
        /// Stopped already: nothing to do.
        case ignore
        /// A success; `progress` is the fraction of elements that succeeded; `mustPump`: nobody
        /// else is starting responses.
        case succeeded(Output, progress: Double, mustPump: Bool)
        /// The first failure: cancel `others`, fail the result.
        case failed(any Error, others: [Response<Output>])
    }

    private let elements: [Element]
    private let maxInFlight: Int
    private let combined: Response<[Output]>
    private let makeResponse: @Sendable (Element) throws -> Response<Output>
    private let values: Collector<Output>
    private let state = LockedBox.make(State())

    init(
        _ elements: [Element],
        maxInFlight: Int,
        into combined: Response<[Output]>,
        _ makeResponse: @escaping @Sendable (Element) throws -> Response<Output>
    ) {
        self.elements = elements
        self.maxInFlight = maxInFlight
        self.combined = combined
        self.makeResponse = makeResponse
        values = Collector(count: elements.count)
    }

    /// Starts the first responses.
    func start() {
        state.withLock { $0.isPumping = true }
        pump()
    }

    /// The result was cancelled: start no more, and let go of those in flight.
    func stop() {
        for response in stopAll() { response.releaseClaim() }
    }

    /// Starts responses while there is room, elements left and no stop; the caller pumps.
    private func pump() {
        while true {
            let index: Int? = state.withLock { state in
                guard !state.isStopped, state.running < maxInFlight, state.next < elements.count else {
                    state.isPumping = false
                    return nil
                }
                state.next += 1
                state.running += 1
                return state.next - 1
            }
            guard let index else { return }
            start(index)
        }
    }

    private func start(_ index: Int) {
        let response: Response<Output>
        do {
            response = try makeResponse(elements[index])
        } catch {
            fail(with: error, others: stopAll())
            return
        }
        response.addClaim()
        let admitted = state.withLock { state in
            guard !state.isStopped else { return false }
            state.inFlight[index] = response
            return true
        }
        guard admitted else {
            // Stopped meanwhile: nobody will look at its outcome, which the fan-out's own failure
            // or cancellation already stands for, so a failure of its own is not reported as
            // unobserved against the factory; then cancel it, unless someone else waits on it.
            response.markFailureObserved()
            response.releaseClaim()
            return
        }
        response.addInternalObserver(
            .observer { result, completion in self.finished(index, with: result, context: &completion) })
    }

    private func finished(_ index: Int, with result: Result<Output, any Error>, context: inout CompletionContext) {
        let finish = state.withLock { state -> Finish in
            guard let response = state.inFlight.removeValue(forKey: index) else { return .ignore }
            response.removeClaim()  // done: only the count changes
            state.running -= 1
            switch result {
            case .success(let value):
                state.succeeded += 1
                let mustPump = !state.isPumping
                state.isPumping = true
                return .succeeded(value, progress: Double(state.succeeded) / Double(elements.count), mustPump: mustPump)
            case .failure(let error):
                return .failed(error, others: stopAll(&state))
            }
        }
        switch finish {
        case .ignore:
            return
        case .succeeded(let value, let progress, let mustPump):
            if let all = values.store(value, at: index) {
                combined.finishNested(with: .success(all), in: &context)
                return
            }
            combined.reportProgress(progress)
            if mustPump { pump() }
        case .failed(let error, let others):
            fail(with: error, others: others)
        }
    }

    /// Stops, and returns the responses in flight, for the caller to let go of.
    private func stopAll() -> [Response<Output>] {
        state.withLock { stopAll(&$0) }
    }

    private func stopAll(_ state: inout State) -> [Response<Output>] {
        state.isStopped = true
        defer { state.inFlight = [:] }
        return Array(state.inFlight.values)
    }

    /// Lets go of `others` (cancelling them unless something else waits on them), then fails the
    /// result, as `all` does: the losers are cancelled before the result's callbacks run.
    private func fail(with error: any Error, others: [Response<Output>]) {
        for response in others { response.releaseClaim() }
        combined.finish(with: .failure(error), how: .racing)
    }
}
