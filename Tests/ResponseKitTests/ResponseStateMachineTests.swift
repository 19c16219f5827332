import Testing

@testable import ResponseKit

/// `ResponseStateMachine` on its own, without a response around it: the test plays the storage,
/// calling each transition with the flags the storage would read under the lock, and reads back
/// the action, the flags the transition sets and the machine it leaves, each as a line.
///
/// The rule `Response`'s `Sendable` proof rests on gets a test of its own: a delivered machine
/// (`done`, or `delivering` with the `delivered` flag) is never written, because its result is
/// read without the lock (`Response.deliveredResult`).
struct ResponseStateMachineTests {
    typealias Machine = ResponseStateMachine<Int>

    // MARK: - Every state × every event

    /// Where a machine starts, each reached through transitions as the storage would.
    enum Start: String, CaseIterable, Sendable {
        case pendingEmpty, pendingOne, pendingMany, pendingWithUpstream, pendingWithHandler, pendingOnExecutor
        case delivering, deliveringWithLate, delivered, doneSucceeded, doneCancelled
    }

    /// What happens to it: every transition a response runs while the machine is shared.
    enum Event: String, CaseIterable, Sendable {
        case registerSuccess, registerFailure, removeFailureCallback, succeed, cancel, addUpstream,
            addCancellationHandler
    }

    struct Row: Sendable, CustomTestStringConvertible {
        let start: Start
        let event: Event
        let expected: String

        init(_ start: Start, _ event: Event, _ expected: String) {
            self.start = start
            self.event = event
            self.expected = expected
        }

        var testDescription: String { "\(start.rawValue) × \(event.rawValue)" }
    }

    /// Each line: the action; the flags the transition sets; the machine afterwards.
    static let table: [Row] = [
        // Pending, no callback: registrations are stored with their marks; a result with nothing
        // to finish and nobody to tell makes the machine `done` and `delivered` at once.
        Row(.pendingEmpty, .registerSuccess, "stored, callback taken | observed | pending[success]"),
        Row(
            .pendingEmpty, .registerFailure,
            "stored, callback taken | observed failureObserved | pending[failure]"),
        Row(.pendingEmpty, .removeFailureCallback, "removed nothing | - | pending[]"),
        Row(.pendingEmpty, .succeed, "deliver[], links none | done delivered | done(success 7)"),
        Row(
            .pendingEmpty, .cancel,
            "deliver[], links none | done cancelled failed delivered | done(failure CancellationError)"),
        Row(.pendingEmpty, .addUpstream, "recorded | - | pending[], link upstream"),
        Row(.pendingEmpty, .addCancellationHandler, "stored | - | pending[], link extras(handlers 1)"),

        // Pending with callbacks: a result hands them out and leaves the machine delivering.
        Row(.pendingOne, .registerSuccess, "stored, callback taken | observed | pending[success, success]"),
        Row(
            .pendingOne, .registerFailure,
            "stored, callback taken | observed failureObserved | pending[success, failure]"),
        Row(.pendingOne, .removeFailureCallback, "removed nothing | - | pending[success]"),
        Row(.pendingOne, .succeed, "deliver[success], links none | done | delivering(success 7)"),
        Row(
            .pendingOne, .cancel,
            "deliver[success], links none | done cancelled failed | delivering(failure CancellationError)"),
        Row(.pendingOne, .addUpstream, "recorded | - | pending[success], link upstream"),
        Row(.pendingOne, .addCancellationHandler, "stored | - | pending[success], link extras(handlers 1)"),

        // A failure callback among them makes a failure observed.
        Row(
            .pendingMany, .registerSuccess,
            "stored, callback taken | observed | pending[success, failure, success]"),
        Row(
            .pendingMany, .registerFailure,
            "stored, callback taken | observed failureObserved | pending[success, failure, failure]"),
        Row(.pendingMany, .removeFailureCallback, "removed failure | - | pending[success]"),
        Row(.pendingMany, .succeed, "deliver[success, failure], links none | done | delivering(success 7)"),
        Row(
            .pendingMany, .cancel,
            "deliver[success, failure], links none | done cancelled failed failureObserved"
                + " | delivering(failure CancellationError)"),
        Row(.pendingMany, .addUpstream, "recorded | - | pending[success, failure], link upstream"),
        Row(
            .pendingMany, .addCancellationHandler,
            "stored | - | pending[success, failure], link extras(handlers 1)"),

        // A step of a chain: its one upstream is handed out as the completion's to release, and
        // the machine stays delivering until that is done (issue 37's order).
        Row(
            .pendingWithUpstream, .registerSuccess,
            "stored, callback taken | observed | pending[success], link upstream"),
        Row(
            .pendingWithUpstream, .registerFailure,
            "stored, callback taken | observed failureObserved | pending[failure], link upstream"),
        Row(.pendingWithUpstream, .removeFailureCallback, "removed nothing | - | pending[], link upstream"),
        Row(.pendingWithUpstream, .succeed, "deliver[], links upstream | done | delivering(success 7)"),
        Row(
            .pendingWithUpstream, .cancel,
            "deliver[], links upstream | done cancelled failed | delivering(failure CancellationError)"),
        Row(.pendingWithUpstream, .addUpstream, "recorded | - | pending[], link extras(upstream, upstreams 1)"),
        Row(
            .pendingWithUpstream, .addCancellationHandler,
            "stored | - | pending[], link extras(upstream, handlers 1)"),

        // Extras with a handler: a result moves their links out, and the extras go with them
        // when nothing in them outlives the result.
        Row(
            .pendingWithHandler, .registerSuccess,
            "stored, callback taken | observed | pending[success], link extras(handlers 1)"),
        Row(
            .pendingWithHandler, .registerFailure,
            "stored, callback taken | observed failureObserved | pending[failure], link extras(handlers 1)"),
        Row(
            .pendingWithHandler, .removeFailureCallback,
            "removed nothing | - | pending[], link extras(handlers 1)"),
        Row(.pendingWithHandler, .succeed, "deliver[], links links(handlers 1) | done | delivering(success 7)"),
        Row(
            .pendingWithHandler, .cancel,
            "deliver[], links links(handlers 1) | done cancelled failed | delivering(failure CancellationError)"),
        Row(
            .pendingWithHandler, .addUpstream,
            "recorded | - | pending[], link extras(upstream, handlers 1)"),
        Row(
            .pendingWithHandler, .addCancellationHandler,
            "stored | - | pending[], link extras(handlers 2)"),

        // Extras that hold the executor outlive the result: the machine keeps them.
        Row(
            .pendingOnExecutor, .registerSuccess,
            "stored, callback taken | observed | pending[success], link extras(executor)"),
        Row(
            .pendingOnExecutor, .registerFailure,
            "stored, callback taken | observed failureObserved | pending[failure], link extras(executor)"),
        Row(
            .pendingOnExecutor, .removeFailureCallback,
            "removed nothing | - | pending[], link extras(executor)"),
        Row(
            .pendingOnExecutor, .succeed,
            "deliver[], links links() | done | delivering(success 7), link extras(executor)"),
        Row(
            .pendingOnExecutor, .cancel,
            "deliver[], links links() | done cancelled failed"
                + " | delivering(failure CancellationError), link extras(executor)"),
        Row(
            .pendingOnExecutor, .addUpstream,
            "recorded | - | pending[], link extras(executor, upstream)"),
        Row(
            .pendingOnExecutor, .addCancellationHandler,
            "stored | - | pending[], link extras(executor, handlers 1)"),

        // Delivering, not yet delivered: a callback joins the delivery (and says so with
        // `lateCallbacks`, which stops the delivery from ending without the lock); the result
        // stands; links are refused; a handler never runs (the response was not cancelled).
        Row(
            .delivering, .registerSuccess,
            "queuedBehindDelivery, callback taken | observed lateCallbacks"
                + " | delivering(success 7), link extras(late[success])"),
        Row(
            .delivering, .registerFailure,
            "queuedBehindDelivery, callback taken | observed failureObserved lateCallbacks"
                + " | delivering(success 7), link extras(late[failure])"),
        Row(.delivering, .removeFailureCallback, "removed nothing | - | delivering(success 7)"),
        Row(.delivering, .succeed, "alreadyCompleted(success 7), links none | - | delivering(success 7)"),
        Row(.delivering, .cancel, "alreadyCompleted(success 7), links none | - | delivering(success 7)"),
        Row(.delivering, .addUpstream, "refused | - | delivering(success 7)"),
        Row(.delivering, .addCancellationHandler, "discard | - | delivering(success 7)"),

        Row(
            .deliveringWithLate, .registerSuccess,
            "queuedBehindDelivery, callback taken | observed lateCallbacks"
                + " | delivering(success 7), link extras(late[failure, success])"),
        Row(
            .deliveringWithLate, .registerFailure,
            "queuedBehindDelivery, callback taken | observed failureObserved lateCallbacks"
                + " | delivering(success 7), link extras(late[failure, failure])"),
        Row(
            .deliveringWithLate, .removeFailureCallback,
            "removed failure | - | delivering(success 7), link extras(late[])"),
        Row(
            .deliveringWithLate, .succeed,
            "alreadyCompleted(success 7), links none | - | delivering(success 7), link extras(late[failure])"),
        Row(
            .deliveringWithLate, .cancel,
            "alreadyCompleted(success 7), links none | - | delivering(success 7), link extras(late[failure])"),
        Row(.deliveringWithLate, .addUpstream, "refused | - | delivering(success 7), link extras(late[failure])"),
        Row(
            .deliveringWithLate, .addCancellationHandler,
            "discard | - | delivering(success 7), link extras(late[failure])"),

        // Delivered (the `delivered` flag on a delivering machine) and done: final. A callback is
        // left with the caller, to deliver at once; nothing else changes but the caller's marks.
        Row(.delivered, .registerSuccess, "deliverNow(success 7), callback kept | observed | delivering(success 7)"),
        Row(
            .delivered, .registerFailure,
            "deliverNow(success 7), callback kept | observed failureObserved | delivering(success 7)"),
        Row(.delivered, .removeFailureCallback, "removed nothing | - | delivering(success 7)"),
        Row(.delivered, .succeed, "alreadyCompleted(success 7), links none | - | delivering(success 7)"),
        Row(.delivered, .cancel, "alreadyCompleted(success 7), links none | - | delivering(success 7)"),
        Row(.delivered, .addUpstream, "refused | - | delivering(success 7)"),
        Row(.delivered, .addCancellationHandler, "discard | - | delivering(success 7)"),

        Row(.doneSucceeded, .registerSuccess, "deliverNow(success 7), callback kept | observed | done(success 7)"),
        Row(
            .doneSucceeded, .registerFailure,
            "deliverNow(success 7), callback kept | observed failureObserved | done(success 7)"),
        Row(.doneSucceeded, .removeFailureCallback, "removed nothing | - | done(success 7)"),
        Row(.doneSucceeded, .succeed, "alreadyCompleted(success 7), links none | - | done(success 7)"),
        Row(.doneSucceeded, .cancel, "alreadyCompleted(success 7), links none | - | done(success 7)"),
        Row(.doneSucceeded, .addUpstream, "refused | - | done(success 7)"),
        Row(.doneSucceeded, .addCancellationHandler, "discard | - | done(success 7)"),

        // A cancelled response runs a handler added afterwards at once.
        Row(
            .doneCancelled, .registerSuccess,
            "deliverNow(failure CancellationError), callback kept | observed | done(failure CancellationError)"),
        Row(
            .doneCancelled, .registerFailure,
            "deliverNow(failure CancellationError), callback kept | observed failureObserved"
                + " | done(failure CancellationError)"),
        Row(.doneCancelled, .removeFailureCallback, "removed nothing | - | done(failure CancellationError)"),
        Row(
            .doneCancelled, .succeed,
            "alreadyCompleted(failure CancellationError), links none | - | done(failure CancellationError)"),
        Row(
            .doneCancelled, .cancel,
            "alreadyCompleted(failure CancellationError), links none | - | done(failure CancellationError)"),
        Row(.doneCancelled, .addUpstream, "refused | - | done(failure CancellationError)"),
        Row(.doneCancelled, .addCancellationHandler, "runNow | - | done(failure CancellationError)"),
    ]

    @Test func theTable_coversEveryStateAndEvent_once() {
        let pairs = Self.table.map { "\($0.start.rawValue) × \($0.event.rawValue)" }
        #expect(Set(pairs).count == pairs.count, "a pair is listed twice")
        #expect(pairs.count == Start.allCases.count * Event.allCases.count, "a pair is missing")
    }

    @Test(arguments: table)
    func eachTransition_returnsItsAction_andFlags_andLeavesItsMachine(_ row: Row) {
        var fixture = Fixture(row.start)
        let outcome = fixture.apply(row.event)
        #expect("\(outcome) | \(fixture.describeMachine())" == row.expected)
    }

    // MARK: - The rule the Sendable proof rests on

    /// The starts whose result is read without the lock.
    static let deliveredStarts: [Start] = [.delivered, .doneSucceeded, .doneCancelled]

    /// A delivered machine's bytes, and everything it links to, are the same after any event:
    /// no transition writes it, so a lock-free read of its result never overlaps a write. (Its
    /// callbacks are left with the caller, which delivers them at once.)
    @Test(arguments: deliveredStarts, Event.allCases)
    func aDeliveredMachine_isNeverWritten(_ start: Start, _ event: Event) {
        var fixture = Fixture(start)
        let before = fixture.snapshot()

        let outcome = fixture.apply(event)

        #expect(fixture.snapshot() == before, "\(event.rawValue) wrote a delivered machine: \(outcome)")
        switch event {
        case .registerSuccess, .registerFailure:
            #expect(outcome.hasPrefix("deliverNow("))
            #expect(outcome.contains("callback kept"), "a stored callback would never run")
        case .succeed, .cancel:
            #expect(outcome.hasPrefix("alreadyCompleted("))
            #expect(outcome.contains("links none"))
        case .removeFailureCallback: #expect(outcome.hasPrefix("removed nothing"))
        case .addUpstream: #expect(outcome.hasPrefix("refused"))
        case .addCancellationHandler: #expect(outcome.hasPrefix("runNow") || outcome.hasPrefix("discard"))
        }
    }

    /// Only the `delivered` flag tells the delivered phase from a delivery still under way: the
    /// same machine, given the flags without it, takes the callback into the delivery.
    @Test func aDeliveringMachine_isTreatedAsDelivered_onlyWhenItsFlagsSaySo() {
        var underWay = Fixture(.delivering)
        var delivered = Fixture(.delivered)
        #expect(underWay.describeMachine() == delivered.describeMachine())

        #expect(underWay.apply(.registerSuccess).hasPrefix("queuedBehindDelivery"))
        #expect(delivered.apply(.registerSuccess).hasPrefix("deliverNow"))
    }

    // MARK: - Ending a delivery

    /// The lock-free end of a delivery (`rk_set_if_unlocked_and_clear`) must fail once a callback
    /// joined, and set `delivered` when it succeeds.
    @Test func theLockFreeEnd_isRefusedByLateCallbacks_andSetsDelivered() {
        let end = Machine.deliveryEndWithoutLock
        #expect(end.unless == ResponseFlags.lateCallbacks)
        #expect(end.setting == ResponseFlags.delivered)
    }

    @Test func finishingADelivery_thatNobodyJoined_makesTheMachineDone_andSetsDelivered() {
        var fixture = Fixture(.delivering)
        #expect(fixture.finishDelivery() == "finished | delivered | done(success 7)")
    }

    @Test func finishingADelivery_thatCallbacksJoined_handsThemOut_thenFinishes() {
        var fixture = Fixture(.deliveringWithLate)
        fixture.apply(.registerSuccess)
        #expect(
            fixture.finishDelivery()
                == "deliverLate[failure, success] | failureObserved | delivering(success 7), link extras(late[])")
        #expect(fixture.finishDelivery() == "finished | delivered | done(success 7), link extras(late[])")
    }

    @Test func finishingADelivery_whoseLateCallbacksWereRemoved_finishes() {
        var fixture = Fixture(.deliveringWithLate)
        fixture.apply(.removeFailureCallback)
        #expect(fixture.finishDelivery() == "finished | delivered | done(success 7), link extras(late[])")
    }

    @Test func finishingADelivery_ofLateSuccessCallbacks_marksNoFailureObserved() {
        var fixture = Fixture(.delivering)
        fixture.apply(.registerSuccess)
        #expect(
            fixture.finishDelivery() == "deliverLate[success] | - | delivering(success 7), link extras(late[])")
    }

    /// Only the completing thread finishes a delivery, and only after the lock-free end failed,
    /// so the flag is never set then; called on a delivered machine anyway, `finishDelivery` looks
    /// at `delivered` and leaves it as it is, as the proof on `Response` says every transition does.
    @Test func finishingADelivery_onADeliveredMachine_leavesItAsItIs() {
        var fixture = Fixture(.delivered)
        let before = fixture.snapshot()
        _ = fixture.finishDelivery()
        #expect(fixture.snapshot() == before)
    }

    @Test func finishingADelivery_ofAMachineNotDelivering_stopsTheProgram() async {
        await #expect(processExitsWith: .failure) {
            var fixture = Fixture(.doneSucceeded)
            _ = fixture.finishDelivery()
        }
        await #expect(processExitsWith: .failure) {
            var fixture = Fixture(.pendingOne)
            _ = fixture.finishDelivery()
        }
    }
}

// MARK: - Playing the storage

/// A machine and the state word's flags, as the storage holds them; made by the transitions the
/// storage would run.
private struct Fixture {
    typealias Machine = ResponseStateMachine<Int>

    var machine = Machine(state: .pending(.empty), link: nil)
    var flags: UInt32 = 0
    /// What the machine links to is kept alive by it; these are done responses, which need nothing.
    let upstream = Response<Int>.succeeded(1)
    let secondUpstream = Response<Int>.succeeded(2)

    init(_ start: ResponseStateMachineTests.Start) {
        switch start {
        case .pendingEmpty:
            break
        case .pendingOne:
            apply(.registerSuccess)
        case .pendingMany:
            apply(.registerSuccess)
            apply(.registerFailure)
        case .pendingWithUpstream:
            apply(.addUpstream)
        case .pendingWithHandler:
            apply(.addCancellationHandler)
        case .pendingOnExecutor:
            machine = Machine(state: .pending(.empty), link: ResponseExtras(executor: .immediate))
        case .delivering:
            apply(.registerSuccess)
            complete(succeeding: true)
        case .deliveringWithLate:
            apply(.registerSuccess)
            complete(succeeding: true)
            apply(.registerFailure)
        case .delivered:
            apply(.registerSuccess)
            complete(succeeding: true)
            // The completing thread's lock-free end: the flag alone, the machine left delivering.
            flags |= Machine.deliveryEndWithoutLock.setting
        case .doneSucceeded:
            complete(succeeding: true)
        case .doneCancelled:
            complete(succeeding: false)
        }
    }

    /// Runs the transition for `event` with the flags, sets the flags it decided (as the unlock
    /// does) and returns "action | flags".
    @discardableResult
    mutating func apply(_ event: ResponseStateMachineTests.Event) -> String {
        switch event {
        case .registerSuccess: return register(.success { _ in }, marking: ResponseFlags.observed)
        case .registerFailure:
            return register(.failure { _ in }, marking: ResponseFlags.observed | ResponseFlags.failureObserved)
        case .removeFailureCallback:
            let removed = machine.removeCallback(
                where: { callback in
                    if case .failure = callback { return true }
                    return false
                }, flags: flags)
            return (removed.map { "removed \(Self.kind(of: $0))" } ?? "removed nothing") + " | -"
        case .succeed: return complete(succeeding: true)
        case .cancel: return complete(succeeding: false)
        case .addUpstream:
            let upstream = machine.link == nil && machine.extras == nil ? upstream : secondUpstream
            return (machine.addUpstream(upstream) ? "recorded" : "refused") + " | -"
        case .addCancellationHandler:
            switch machine.addCancellationHandler({}, flags: flags) {
            case .stored: return "stored | -"
            case .runNow: return "runNow | -"
            case .discard: return "discard | -"
            }
        }
    }

    mutating func register(_ callback: ResponseCallback<Int>, marking: UInt32) -> String {
        var carried: ResponseCallback<Int>? = callback
        let transition = machine.register(&carried, marking: marking, flags: flags)
        let kept = carried == nil ? "callback taken" : "callback kept"
        let action: String
        switch transition.action {
        case .stored: action = "stored"
        case .queuedBehindDelivery: action = "queuedBehindDelivery"
        case .deliverNow(let result): action = "deliverNow(\(Self.describe(result)))"
        }
        return "\(action), \(kept) | \(set(transition.flags))"
    }

    /// Completes with 7, or with the cancellation's failure (as `Response.cancel()` does).
    @discardableResult
    mutating func complete(succeeding: Bool) -> String {
        let result: Result<Int, any Error> = succeeding ? .success(7) : .failure(CancellationError())
        let outcome = ResponseOutcome(result)
        var links = ResponseFinishedLinks.none
        let transition = machine.complete(
            with: outcome,
            succeeded: succeeding,
            cause: succeeding ? 0 : ResponseFlags.cancelled,
            links: &links
        )
        let action: String
        switch transition.action {
        case .deliver(let callbacks):
            action = "deliver\(Self.describe(callbacks))"
        case .alreadyCompleted(let first):
            // No machine took it, as in `Response.complete(outcome:result:how:context:)`.
            outcome.destroyValue(as: Int.self)
            action = "alreadyCompleted(\(Self.describe(first)))"
        }
        return "\(action), links \(Self.describe(consume links)) | \(set(transition.flags))"
    }

    mutating func finishDelivery() -> String {
        let transition = machine.finishDelivery(flags: flags)
        let action: String
        switch transition.action {
        case .finished: action = "finished"
        case .deliverLate(let callbacks): action = "deliverLate\(Self.describe(callbacks))"
        }
        return "\(action) | \(set(transition.flags)) | \(describeMachine())"
    }

    /// Sets `decided` as the unlock would, and names them.
    mutating func set(_ decided: UInt32) -> String {
        flags |= decided
        return Self.describe(flags: decided)
    }

    // MARK: Reading it back

    func describeMachine() -> String {
        let state: String
        switch machine.state {
        case .pending(let callbacks): state = "pending\(Self.describe(callbacks))"
        case .delivering(let outcome): state = "delivering(\(Self.describe(outcome.result(as: Int.self))))"
        case .done(let outcome): state = "done(\(Self.describe(outcome.result(as: Int.self))))"
        }
        guard let link = machine.link else { return state }
        guard let extras = machine.extras else {
            return state + (link === upstream ? ", link upstream" : ", link another object")
        }
        var parts: [String] = []
        if extras.executor != nil { parts.append("executor") }
        if extras.upstream != nil { parts.append("upstream") }
        if !extras.upstreams.isEmpty { parts.append("upstreams \(extras.upstreams.count)") }
        let handlers = (extras.cancellationHandler == nil ? 0 : 1) + extras.cancellationHandlers.count
        if handlers > 0 { parts.append("handlers \(handlers)") }
        if let late = machine.lateCallbacks { parts.append("late\(Self.describe(late.list))") }
        if extras.progress != nil { parts.append("progress") }
        return state + ", link extras(\(parts.joined(separator: ", ")))"
    }

    /// The machine's own bytes, and what its extras hold, to compare before and after.
    mutating func snapshot() -> [String] {
        let bytes = withUnsafeBytes(of: &machine) { Array($0) }
        return [bytes.map(String.init).joined(separator: " "), describeMachine()]
    }

    static func describe(_ result: Result<Int, any Error>) -> String {
        switch result {
        case .success(let value): "success \(value)"
        case .failure(let error): "failure \(type(of: error))"
        }
    }

    static func describe(_ callbacks: CallbackList<Int>) -> String {
        switch callbacks {
        case .empty: "[]"
        case .one(let callback): "[\(kind(of: callback))]"
        case .many(let callbacks): "[\(callbacks.map(kind(of:)).joined(separator: ", "))]"
        }
    }

    static func kind(of callback: ResponseCallback<Int>) -> String {
        switch callback {
        case .success: "success"
        case .failure: "failure"
        default: "other"
        }
    }

    /// What a completion hands out of the lock; an upstream handed out is the caller's to
    /// release, as `Response.complete(outcome:result:how:context:)` does, exactly once.
    static func describe(_ links: consuming ResponseFinishedLinks) -> String {
        switch consume links {
        case .none:
            return "none"
        case .upstream(let upstream):
            upstream.release()
            return "upstream"
        case .links(let links):
            var parts: [String] = []
            if links.upstream != nil { parts.append("upstream") }
            if let rare = links.rare {
                let handlers = (rare.cancellationHandler == nil ? 0 : 1) + rare.cancellationHandlers.count
                if handlers > 0 { parts.append("handlers \(handlers)") }
                if !rare.upstreams.isEmpty { parts.append("upstreams \(rare.upstreams.count)") }
            }
            if links.finalProgress != nil { parts.append("progress") }
            return "links(\(parts.joined(separator: ", ")))"
        }
    }

    /// The flags' names, in the order a response's life sets them.
    static func describe(flags: UInt32) -> String {
        let names: [(UInt32, String)] = [
            (ResponseFlags.done, "done"), (ResponseFlags.cancelled, "cancelled"), (ResponseFlags.failed, "failed"),
            (ResponseFlags.abandoned, "abandoned"), (ResponseFlags.observed, "observed"),
            (ResponseFlags.failureObserved, "failureObserved"), (ResponseFlags.delivered, "delivered"),
            (ResponseFlags.lateCallbacks, "lateCallbacks"), (ResponseFlags.tracked, "tracked"),
            (ResponseFlags.cancelWanted, "cancelWanted"), (ResponseFlags.checked, "checked"),
        ]
        let set = names.filter { flags & $0.0 != 0 }.map(\.1)
        return set.isEmpty ? "-" : set.joined(separator: " ")
    }
}
