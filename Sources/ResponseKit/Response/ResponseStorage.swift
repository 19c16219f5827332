import CResponseKit

// A response's storage is the response object itself: the state machine, and beside it the state
// word (lock, flags, claims), where C11 atomics reach it by address (`ResponseLayout`), so that a
// response is one allocation. The code in this file is the only code that locks: every
// access to `machine` goes through `withLock`, except the documented lock-free read of a
// delivered result (`deliveredResult`).

extension Response {
    /// The state word, at a fixed offset from the object's stored properties (`ResponseLayout`);
    /// reached this way, without the value type's metadata, so that unspecialised code (a deinit)
    /// reads the flags cheaply.
    @inlinable @inline(__always)
    var word: UnsafeMutablePointer<rk_word> {
        ResponseLayout.word(of: self)
    }

    /// Runs `body` on the state machine under the lock, then releases it, setting `flagsOnUnlock`
    /// as `body` leaves them (in the same atomic operation where the platform allows). The only
    /// code that takes a response's lock. Keep `body` to the machine: never user code.
    @inlinable @inline(__always)
    func withLock<Result>(
        _ body: (inout ResponseStateMachine<Value>, inout UInt32) -> Result
    ) -> Result {
        withLock(addingOnUnlock: 0, body)
    }

    /// ``withLock(_:)`` that also adds `amount` to the word as it unlocks, in the same atomic
    /// operation: a registration that records a claim with it (a derived response, a blocking read).
    @inlinable @inline(__always)
    func withLock<Result>(
        addingOnUnlock amount: UInt32,
        _ body: (inout ResponseStateMachine<Value>, inout UInt32) -> Result
    ) -> Result {
        rk_lock(word)
        var flagsOnUnlock: UInt32 = 0
        let result = body(&machine, &flagsOnUnlock)
        if flagsOnUnlock == 0 && amount == 0 {
            rk_unlock(word)
        } else {
            rk_unlock_setting_adding(word, flagsOnUnlock, amount)
        }
        return result
    }

    /// The flags, with acquire ordering.
    @inlinable @inline(__always)
    var flags: UInt32 {
        rk_load_acquire(word)
    }

    /// Runs `body` on the machine of a response that only its maker can reach so far (composition
    /// setting up a response it has just made): without the lock, unless the response is tracked,
    /// since the tracker holds it from its creation and may read it (under the lock) at any time.
    @inlinable @inline(__always)
    func beforeSharing<Result>(_ body: (inout ResponseStateMachine<Value>) -> Result) -> Result {
        if rk_load_relaxed(word) & ResponseFlags.tracked == 0 { return body(&machine) }
        return withLock { machine, _ in body(&machine) }
    }

    /// Sets `flags` without the lock.
    @inlinable @inline(__always)
    func setFlags(_ flags: UInt32) {
        rk_fetch_or(word, flags)
    }

    /// The result once it has been delivered to every callback, read **without the lock**: the
    /// one documented fast path. After `delivered` is set (with release ordering, after the
    /// machine became final; see the note on `Response`), nothing writes the machine again, so a
    /// reader that sees the flag (acquire) may read it. `nil` before that, whatever the state.
    ///
    /// The state is read through a typed pointer (`ResponseLayout.state(of:)`), not through the
    /// `machine` property: under the thread sanitizer, a transition's `inout` access to `machine`
    /// (a late `complete`, a waiter added, which write nothing once delivered) counts as a write
    /// of the whole property, and a read of `machine` overlapping it is reported as a race.
    @inlinable @inline(__always)
    var deliveredResult: Result<Value, any Error>? {
        guard flags & ResponseFlags.delivered != 0 else { return nil }
        switch ResponseLayout.state(of: self).pointee {
        case .delivering(let outcome), .done(let outcome):
            assert(isTheMachinesOutcome(outcome), "ResponseKit: the lock-free read disagrees with the machine")
            return outcome.result(as: Value.self)
        case .pending:
            preconditionFailure("ResponseKit: a delivered response has no result")
        }
    }

    /// Debug builds: whether `outcome`, read without the lock, is what the machine holds under it
    /// (the same case; the same bits in a success's slot, the same dynamic type of error).
    @usableFromInline
    func isTheMachinesOutcome(_ outcome: ResponseOutcome) -> Bool {
        withLock { machine, _ in
            let stored: ResponseOutcome
            switch machine.state {
            case .pending: return false
            case .delivering(let outcome), .done(let outcome): stored = outcome
            }
            switch (stored, outcome) {
            case (.success(let stored), .success(let read)): return stored.words == read.words
            case (.failure(let stored), .failure(let read)): return type(of: stored) == type(of: read)
            default: return false
            }
        }
    }

    /// The result if the response has one: without the lock once delivered, with it before.
    @inlinable
    var currentResult: Result<Value, any Error>? {
        let flags = self.flags
        if flags & ResponseFlags.delivered != 0 { return deliveredResult }
        guard flags & ResponseFlags.done != 0 else { return nil }
        return withLock { machine, _ in machine.result }
    }

    /// How many callbacks wait for the result.
    var waitingCallbackCount: Int {
        withLock { machine, _ in machine.waitingCallbackCount }
    }

    // MARK: - Claims

    /// Adds a claim (a derived response, an awaiting task): with or without the lock, the add is
    /// atomic.
    ///
    /// Claims matter only while the response is pending: releasing one from a response that is
    /// done changes nothing (``ResponseUpstream/releaseClaim(context:)`` does not even count it),
    /// and a registration that finds the response delivered records none.
    @inlinable
    func addClaim() {
        rk_fetch_add(word, ResponseFlags.oneClaim)
    }

    /// Removes a claim of a response that is done: only the count changes.
    @inlinable
    func removeClaim() {
        rk_fetch_sub(word, ResponseFlags.oneClaim)
    }

    /// Removes a claim; returns whether the response should now be cancelled (see
    /// `rk_release_claim`): the last claim went, no callback waits, and this holder or an earlier
    /// one let go wanting it cancelled.
    ///
    /// - Parameter wantsCancel: `true` for a derived response that finished early or a cancelled
    ///   awaiting task; `false` for a blocking read that gave up, which cancels nothing of its own.
    @inlinable
    func releaseClaimDecidingCancel(wantsCancel: Bool) -> Bool {
        rk_release_claim(
            word,
            ResponseFlags.oneClaim,
            ResponseFlags.claimShift,
            ResponseFlags.observed,
            ResponseFlags.cancelWanted,
            wantsCancel
        )
    }
}
