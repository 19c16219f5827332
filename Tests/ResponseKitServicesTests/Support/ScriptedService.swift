import Dispatch
import ResponseKit
import ResponseKitServices

/// How a ``ScriptedService`` answers a step.
enum Answer {
    /// Succeeds at once.
    case succeed
    /// Fails at once with ``TestError``.
    case fail
    /// Returns a pending response and keeps its resolver in ``ScriptedService/held``: the test
    /// finishes it later, or never (a hanging service).
    case hold
}

/// A service that answers as the test scripts it and writes every call to a shared ``Journal``,
/// as `start a`, `a handles willTerminate`, `stop a`.
@MainActor
final class ScriptedService: Service {
    let name: String
    var startAnswer: Answer
    var eventAnswer: Answer
    var stopAnswer: Answer
    private let journal: Journal
    /// The resolvers of the `.hold` answers, by step: `start`, `stop`, or the event's name.
    private(set) var held: [String: Resolver<Void>] = [:]
    /// For each `handle(_:)` call, whether it ran inside a main-queue job.
    private(set) var handledOnMainQueue: [Bool] = []
    /// Responses that finish when a step is first called, by step.
    private var calls: [String: (response: Response<Void>, resolver: Resolver<Void>)] = [:]

    init(name: String, journal: Journal, start: Answer = .succeed, event: Answer = .succeed, stop: Answer = .succeed) {
        self.name = name
        self.journal = journal
        self.startAnswer = start
        self.eventAnswer = event
        self.stopAnswer = stop
    }

    /// A response that succeeds once `step` (`start`, `stop`, or an event's name) has been called.
    func called(_ step: String) -> Response<Void> {
        call(step).response
    }

    func start() -> Response<Void> {
        answer(startAnswer, step: "start", line: "start \(name)")
    }

    func handle(_ event: LifecycleEvent) -> Response<Void> {
        handledOnMainQueue.append(MainQueueProbe.isCurrent)
        return answer(eventAnswer, step: event.name, line: "\(name) handles \(event)")
    }

    func stop() -> Response<Void> {
        answer(stopAnswer, step: "stop", line: "stop \(name)")
    }

    private func answer(_ answer: Answer, step: String, line: String) -> Response<Void> {
        journal.record(line)
        // A step called again (an event sent twice) finishes nothing more.
        let called = call(step)
        if !called.response.isDone { called.resolver.succeed() }
        switch answer {
        case .succeed:
            return .succeeded((), on: .immediate)
        case .fail:
            return .failed(TestError(service: name, step: step), on: .immediate)
        case .hold:
            // The default executor: the manager must hop back to the main actor by itself.
            let (response, resolver) = Response<Void>.pending()
            held[step] = resolver
            return response
        }
    }

    private func call(_ step: String) -> (response: Response<Void>, resolver: Resolver<Void>) {
        if let call = calls[step] { return call }
        let call = Response<Void>.pending(on: .immediate)
        calls[step] = call
        return call
    }
}

/// A service that relies on the protocol's default event handling.
@MainActor
final class QuietService: Service {
    let name = "quiet"
    func start() -> Response<Void> { .succeeded((), on: .immediate) }
    func stop() -> Response<Void> { .succeeded((), on: .immediate) }
}

/// What the services were asked to do, in order, across all services of a test.
@MainActor
final class Journal {
    private(set) var lines: [String] = []

    func record(_ line: String) {
        lines.append(line)
    }

    /// The lines recorded after the first one equal to `line`.
    func lines(after line: String) -> [String] {
        guard let index = lines.firstIndex(of: line) else { return [] }
        return Array(lines[(index + 1)...])
    }
}

/// Answers "are we inside a main-queue job?", which `Thread.isMainThread` cannot: Swift Testing
/// on Linux drains the main queue on a thread that is not the main thread.
enum MainQueueProbe {
    private static let key: DispatchSpecificKey<Bool> = {
        let key = DispatchSpecificKey<Bool>()
        DispatchQueue.main.setSpecific(key: key, value: true)
        return key
    }()

    static var isCurrent: Bool {
        DispatchQueue.getSpecific(key: key) == true
    }
}
