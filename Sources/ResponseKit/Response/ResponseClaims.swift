import CResponseKit

// Claims: who waits for a pending response besides its callbacks (a derived response, an awaiting
// task, a blocking read), counted in the state word so that letting go is one atomic operation,
// and the rule that cancels a response when the last of them lets go wanting it cancelled and no
// callback of the user's waits (README, "Who waits for a response").

/// The response a derived response holds a claim on: a ``Response`` of any value type, in one
/// word.
///
/// A step of a chain releases its claim once, on completion; that common path reaches the
/// upstream's state word by address and needs no protocol call. Only the rare last release of a
/// pending upstream (which cancels it) looks its type up.
@usableFromInline
struct ResponseUpstream {
    @usableFromInline let response: AnyObject

    @inlinable
    init(_ response: any AnyResponse) {
        self.response = response
    }

    /// An upstream kept as a plain reference (`ResponseStateMachine.link`), which was made from a
    /// `AnyResponse`.
    @inlinable
    init(unchecked response: AnyObject) {
        self.response = response
    }

    /// Gives up the claim; cancels the upstream when it was the last one, no callback waits for
    /// it and it is still pending, inside `context`. An upstream that is done is left alone: its claims no
    /// longer matter, and a step of a chain, finished by its upstream, saves an atomic operation.
    @inlinable
    func releaseClaim(context: inout CompletionContext) {
        let word = ResponseLayout.word(of: response)
        guard rk_load_relaxed(word) & ResponseFlags.done == 0 else { return }
        let cancels = rk_release_claim(
            word,
            ResponseFlags.oneClaim,
            ResponseFlags.claimShift,
            ResponseFlags.observed,
            ResponseFlags.cancelWanted,
            true
        )
        guard cancels, rk_load_acquire(word) & ResponseFlags.done == 0 else { return }
        cancel(context: &context)
    }

    /// ``releaseClaim(context:)`` for an upstream held without ARC (a step of a chain completing):
    /// reads its word through a reference the caller keeps alive, so nothing is retained.
    @inlinable @inline(__always)
    static func releaseClaim(of upstream: Unmanaged<AnyObject>, context: inout CompletionContext) {
        let word = upstream._withUnsafeGuaranteedRef { ResponseLayout.word(of: $0) }
        guard rk_load_relaxed(word) & ResponseFlags.done == 0 else { return }
        ResponseUpstream(unchecked: upstream.takeUnretainedValue()).releaseClaim(context: &context)
    }

    @usableFromInline @inline(never)
    func cancel(context: inout CompletionContext) {
        // Made from a `AnyResponse` in `init`: the cast holds.
        guard let holder = response as? any AnyResponse else { preconditionFailure("ResponseKit: a lost upstream") }
        holder.cancelAfterLastClaim(context: &context)
    }
}

extension Response {
    /// Adds a claim (a derived response): with or without the lock, the add is atomic. (Blocking
    /// waits and awaiting tasks add theirs with their registration: ``addClaimingEntry(_:)``.)
    ///
    /// Claims matter only while the response is pending: releasing one from a response that is
    /// done changes nothing (``ResponseUpstream/releaseClaim(context:)`` does not even count it),
    /// and one added to a response that is done (a registration that finds it delivered still
    /// adds its claim) is never looked at.
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

extension Response {
    // Called through the protocol, so unspecialised: the common path (a claim released from a
    // response that is done) must mention no type built from `Value`, whose metadata an
    // unspecialised function looks up on entry, a cache search per step of a chain
    // (Benchmarks/README.md, "What the engine's shape saves"). The cancellation goes out of line.

    /// Gives up one claim; cancels the response when it was the last one and it is pending. A
    /// response that is done is left alone: its claims no longer matter.
    @inlinable
    func releaseClaim() {
        guard !isDone else { return }
        if releaseClaimDecidingCancel(wantsCancel: true), !isDone { cancel() }
    }

    @inlinable
    func releaseClaim(context: inout CompletionContext) {
        guard !isDone else { return }
        if releaseClaimDecidingCancel(wantsCancel: true), !isDone { cancelAfterLastClaim(context: &context) }
    }

    /// Gives up a blocking read's claim: the read gave up (a timeout, its task's cancellation),
    /// which cancels nothing of its own; but when a derived response or a task let go wanting
    /// the response cancelled while this read still waited, the read was the last to let go, and
    /// that cancellation happens now.
    @usableFromInline
    func releaseReaderClaim() {
        guard !isDone else { return }
        if releaseClaimDecidingCancel(wantsCancel: false), !isDone { cancel() }
    }

    /// Cancels the response because nobody waits for it any more.
    @usableFromInline @inline(never)
    func cancelAfterLastClaim(context: inout CompletionContext) {
        finishNested(with: .failure(CancellationError()), how: .cancelling, in: &context)
    }
}
