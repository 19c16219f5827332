import ResponseKit

/// What a ``ServiceManager`` knows, and the only code that changes it: the manager asks it what to
/// do next, does it (calls a service, finishes a response, reports a failure), and tells it the
/// answers.
///
/// Each phase carries exactly the data that is valid in it, so the compiler enforces what the
/// comments promise: the response of ``ServiceManager/start(file:line:)`` is pending only until
/// the services registered before it have answered or been skipped; a start in flight and a stop
/// in flight never coexist; holding the waiting services means something only until stopping
/// begins; a stopped manager keeps only the response that later ``ServiceManager/stop(file:line:)``
/// calls return. Every transition updates the state before the manager runs any outside code (a
/// service, the failure handler), so a call back into the manager from there sees it whole.
@MainActor
@available(macOS 13, iOS 16, tvOS 16, watchOS 9, *)
struct ServiceManagerState {
    typealias Entry = ServiceManager.Entry

    /// Every registered service, in registration order, in every phase.
    private(set) var entries: [Entry] = []
    private var phase = Phase.idle(isHoldingWaitingServices: false)

    /// Where the manager is in its life, with what it knows there.
    private enum Phase {
        /// Registering; ``ServiceManager/start(file:line:)`` not yet called.
        case idle(isHoldingWaitingServices: Bool)
        /// Starting the services registered so far, one at a time; the start response is pending.
        case starting(StepCall, StartQueue)
        /// Every service registered before the start has answered; later ones start as they come.
        case running(StartQueue)
        /// ``ServiceManager/stop(file:line:)`` was called: its response, returned again by later
        /// calls, and what it will say.
        case stopping(Response<Void>, StepCall, Stopping)
        /// Every started service has answered its stop; later stop calls return this response.
        case stopped(Response<Void>)
    }

    /// The services starting one at a time, once the manager is started.
    private struct StartQueue {
        /// The service whose start the manager waits for.
        var inFlight: Entry?
        /// Set by ``holdWaitingServices()``: no more service starts.
        var isHoldingWaitingServices: Bool
    }

    /// The two halves of stopping.
    private enum Stopping {
        /// Waiting for the start in flight, if any, to answer; then the waiting services are
        /// skipped and the start response, if still pending, is finished.
        case windingUpStarts(StepCall?, inFlight: Entry?)
        /// Stopping the running services in reverse registration order, one at a time.
        case stoppingServices(inFlight: Entry?)
    }

    /// What the manager does next.
    enum Action {
        /// Call the entry's ``Service/start()`` and tell ``entryStarted(_:failure:)`` its answer.
        case start(Entry)
        /// Fail each skipped service's registration and report it, then finish the start
        /// response if it was still pending.
        case skip([(Entry, ServiceFailure)], thenFinish: StepCall?)
        /// Call the entry's ``Service/stop()`` and tell ``entryStopped(_:failure:)`` its answer.
        case stop(Entry)
        /// Finish the response of ``ServiceManager/start(file:line:)`` or
        /// ``ServiceManager/stop(file:line:)``.
        case finish(StepCall)
    }

    /// How far the app's calls have taken the manager: what decides which calls it accepts.
    enum Progress {
        /// ``ServiceManager/start(file:line:)`` not yet called.
        case notStarted
        /// Starting or running.
        case started
        /// ``ServiceManager/stop(file:line:)`` was called.
        case stopCalled
    }

    /// How far the app's calls have taken the manager.
    var progress: Progress {
        switch phase {
        case .idle: .notStarted
        case .starting, .running: .started
        case .stopping, .stopped: .stopCalled
        }
    }

    /// The response of the first ``ServiceManager/stop(file:line:)`` call; `nil` before it.
    var stopResponse: Response<Void>? {
        switch phase {
        case .idle, .starting, .running: nil
        case .stopping(let response, _, _): response
        case .stopped(let response): response
        }
    }

    // MARK: - The app's calls

    /// Adds `entry`, waiting behind those registered before it.
    ///
    /// - Returns: whether the manager is started, so that the entry may start now.
    mutating func register(_ entry: Entry) -> Bool {
        precondition(progress != .stopCalled, "ServiceManager: a service registered after stop()")
        entries.append(entry)
        return progress == .started
    }

    /// Begins starting, with `call` for the response of ``ServiceManager/start(file:line:)``.
    mutating func start(_ call: StepCall) {
        guard case .idle(let isHolding) = phase else {
            preconditionFailure("ServiceManager: start() in a started or stopping manager")
        }
        phase = .starting(call, StartQueue(inFlight: nil, isHoldingWaitingServices: isHolding))
    }

    /// Starts no more services; nothing once stopping began, which skips the waiting services
    /// anyway.
    mutating func holdWaitingServices() {
        switch phase {
        case .idle:
            phase = .idle(isHoldingWaitingServices: true)
        case .starting(let call, var queue):
            queue.isHoldingWaitingServices = true
            phase = .starting(call, queue)
        case .running(var queue):
            queue.isHoldingWaitingServices = true
            phase = .running(queue)
        case .stopping, .stopped:
            break
        }
    }

    /// Begins stopping, with `response` for every call of ``ServiceManager/stop(file:line:)``; a
    /// start in flight is allowed to finish first.
    mutating func stop(_ response: Response<Void>, _ call: StepCall) {
        switch phase {
        case .idle:
            phase = .stopping(response, call, .windingUpStarts(nil, inFlight: nil))
        case .starting(let startCall, let queue):
            phase = .stopping(response, call, .windingUpStarts(startCall, inFlight: queue.inFlight))
        case .running(let queue):
            phase = .stopping(response, call, .windingUpStarts(nil, inFlight: queue.inFlight))
        case .stopping, .stopped:
            preconditionFailure("ServiceManager: stop() recorded twice")
        }
    }

    // MARK: - The services' answers

    /// Records the answer of the service whose start was in flight: `failure`, or `nil` when it
    /// started.
    mutating func entryStarted(_ entry: Entry, failure: ServiceFailure?) {
        entry.status = failure.map(ServiceManager.Status.failed) ?? .running
        switch phase {
        case .starting(var call, var queue):
            precondition(queue.inFlight === entry, "ServiceManager: the answer of a start not in flight")
            queue.inFlight = nil
            if let failure { call.failures.append(failure) }
            phase = .starting(call, queue)
        case .running(var queue):
            precondition(queue.inFlight === entry, "ServiceManager: the answer of a start not in flight")
            queue.inFlight = nil
            phase = .running(queue)
        case .stopping(let response, let stopCall, .windingUpStarts(var call, let inFlight)):
            precondition(inFlight === entry, "ServiceManager: the answer of a start not in flight")
            if let failure { call?.failures.append(failure) }
            phase = .stopping(response, stopCall, .windingUpStarts(call, inFlight: nil))
        case .idle, .stopping(_, _, .stoppingServices), .stopped:
            preconditionFailure("ServiceManager: the answer of a start not in flight")
        }
    }

    /// Records the answer of the service whose stop was in flight: `failure`, or `nil` when it
    /// stopped.
    mutating func entryStopped(_ entry: Entry, failure: ServiceFailure?) {
        guard case .stopping(let response, var call, .stoppingServices(let inFlight)) = phase else {
            preconditionFailure("ServiceManager: the answer of a stop while not stopping services")
        }
        precondition(inFlight === entry, "ServiceManager: the answer of a stop not in flight")
        entry.status = .stopped
        if let failure { call.failures.append(failure) }
        phase = .stopping(response, call, .stoppingServices(inFlight: nil))
    }

    // MARK: - What to do next

    /// The next thing to do, already recorded as under way: the manager must do it. `nil` while
    /// the manager waits for an answer, or has nothing left to do.
    mutating func nextAction() -> Action? {
        switch phase {
        case .idle, .stopped:
            return nil
        case .starting(let call, var queue):
            guard queue.inFlight == nil else { return nil }
            guard let entry = entries.first(where: \.status.isWaiting) else {
                phase = .running(queue)
                return .finish(call)
            }
            guard !queue.isHoldingWaitingServices else { return nil }  // `stop()` comes, and skips them
            entry.status = .starting
            queue.inFlight = entry
            phase = .starting(call, queue)
            return .start(entry)
        case .running(var queue):
            guard queue.inFlight == nil, !queue.isHoldingWaitingServices,
                let entry = entries.first(where: \.status.isWaiting)
            else { return nil }
            entry.status = .starting
            queue.inFlight = entry
            phase = .running(queue)
            return .start(entry)
        case .stopping(let response, let stopCall, .windingUpStarts(var startCall, let inFlight)):
            guard inFlight == nil else { return nil }
            var skipped: [(Entry, ServiceFailure)] = []
            for entry in entries where entry.status.isWaiting {
                entry.status = .skipped
                let failure = ServiceFailure.skipped(entry.name, registeredAt: entry.registrationSite)
                startCall?.failures.append(failure)
                skipped.append((entry, failure))
            }
            phase = .stopping(response, stopCall, .stoppingServices(inFlight: nil))
            return .skip(skipped, thenFinish: startCall)
        case .stopping(let response, var stopCall, .stoppingServices(let inFlight)):
            guard inFlight == nil else { return nil }
            guard let entry = entries.last(where: \.status.isRunning) else {
                phase = .stopped(response)
                // Recorded in stopping order; the error lists them in registration order.
                stopCall.failures.reverse()
                return .finish(stopCall)
            }
            entry.status = .stopping
            phase = .stopping(response, stopCall, .stoppingServices(inFlight: entry))
            return .stop(entry)
        }
    }
}

/// A pending call of ``ServiceManager/start(file:line:)`` or ``ServiceManager/stop(file:line:)``:
/// what its response will say.
@available(macOS 13, iOS 16, tvOS 16, watchOS 9, *)
struct StepCall {
    /// Finishes the call's response.
    let resolver: Resolver<Void>
    /// Where the app made the call, for the error of its response.
    let site: CallSite
    /// The services that failed on behalf of the call, listed by its error.
    var failures: [ServiceFailure] = []

    /// Succeeds, or fails listing the failures.
    func finish() {
        if failures.isEmpty {
            resolver.succeed()
        } else {
            resolver.fail(ServiceManagerError.servicesFailed(failures, file: site.file, line: site.line))
        }
    }
}

@available(macOS 13, iOS 16, tvOS 16, watchOS 9, *)
extension ServiceManager {
    /// One registered service and where it is in its life.
    @MainActor
    final class Entry {
        let service: any Service
        let name: String
        /// Where the app registered the service, for the errors that name it.
        let registrationSite: CallSite
        /// Changed only by ``ServiceManagerState``.
        fileprivate(set) var status = Status.waiting
        /// Finishes the response ``ServiceManager/register(_:file:line:)`` returned.
        let started: Resolver<Void>

        init(service: any Service, registrationSite: CallSite, started: Resolver<Void>) {
            self.service = service
            self.name = service.name
            self.registrationSite = registrationSite
            self.started = started
        }
    }
}

@available(macOS 13, iOS 16, tvOS 16, watchOS 9, *)
extension ServiceManager {
    /// Where one registered service is in its life.
    enum Status {
        /// Registered, waiting for its turn to start.
        case waiting
        /// Asked to start; the manager waits for its answer.
        case starting
        /// Started; hears about events.
        case running
        /// Its start failed or timed out, for this reason: never stopped.
        case failed(ServiceFailure)
        /// Never started, because stopping began first: never stopped.
        case skipped
        /// Asked to stop; the manager waits for its answer.
        case stopping
        /// Answered its stop, successfully or not.
        case stopped

        var isWaiting: Bool {
            if case .waiting = self { true } else { false }
        }

        var isRunning: Bool {
            if case .running = self { true } else { false }
        }
    }
}
