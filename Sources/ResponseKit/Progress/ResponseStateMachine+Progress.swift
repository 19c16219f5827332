extension ResponseStateMachine {
    @usableFromInline
    enum ProgressObserverAction {
        /// Stored. `heardAlready`: what the others heard, for it to hear at once; `schedule`: a
        /// delivery to schedule; `onFirstObserver`: the hook to run.
        case stored(heardAlready: Double?, schedule: ProgressChannel?, onFirstObserver: (@Sendable () -> Void)?)
        /// The response succeeded: it hears 1 at once.
        case finished
        /// The response failed: there is nothing more to hear.
        case none
    }

    /// Records progress while pending; returns the channel whose delivery to schedule, if any.
    mutating func reportProgress(_ fraction: Double) -> ProgressChannel? {
        guard case .pending = state else { return nil }
        let channel = makeProgressChannel()
        return channel.report(fraction) ? channel : nil
    }

    mutating func addProgressObserver(_ observer: ProgressObserver) -> ProgressObserverAction {
        switch state {
        case .pending:
            let channel = makeProgressChannel()
            let (heardAlready, mustSchedule, hook) = channel.add(observer)
            return .stored(heardAlready: heardAlready, schedule: mustSchedule ? channel : nil, onFirstObserver: hook)
        case .delivering(let outcome), .done(let outcome):
            if case .success = outcome { return .finished }
            return .none
        }
    }

    /// Records a hook that runs when the first progress observer arrives; `false` once done.
    mutating func setOnFirstProgressObserver(_ hook: @escaping @Sendable () -> Void) -> Bool {
        guard case .pending = state else { return false }
        makeProgressChannel().onFirstObserver = hook
        return true
    }

    /// The latest progress reported, if any was.
    var reportedProgress: Double? {
        extras?.progress?.value
    }

    private mutating func makeProgressChannel() -> ProgressChannel {
        let extras = makeExtras()
        if let channel = extras.progress { return channel }
        let channel = ProgressChannel()
        extras.progress = channel
        return channel
    }
}
