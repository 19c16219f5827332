import ResponseKit

#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// What a ``LoadDriver`` says while it runs: how many requests so far, and the current rate.
///
/// ``standardError``, the default, redraws one line on standard error once a second, from the
/// first second on, so a run shorter than a second says nothing; it is silent when standard error
/// is not a terminal (a pipe, a file, CI), so logs stay clean. ``every(_:_:)`` hands each
/// ``Snapshot`` to your own code instead, and ``silent`` says nothing.
@available(macOS 13, iOS 16, tvOS 16, watchOS 9, *)
public struct LoadProgress: Sendable {
    /// How far a run has got.
    public struct Snapshot: Sendable, Hashable {
        /// Time since the run started, warm-up included.
        public let elapsed: Duration
        /// Requests made so far, warm-up included.
        public let requests: Int
        /// Answers received so far, warm-up included.
        public let answers: Int
        /// Answers per second since the previous snapshot.
        public let perSecond: Double

        /// Makes a snapshot.
        ///
        /// - Parameters:
        ///   - elapsed: time since the run started.
        ///   - requests: requests made so far.
        ///   - answers: answers received so far.
        ///   - perSecond: answers per second since the previous snapshot.
        public init(elapsed: Duration, requests: Int, answers: Int, perSecond: Double) {
            self.elapsed = elapsed
            self.requests = requests
            self.answers = answers
            self.perSecond = perSecond
        }

        /// The progress line: `load: 3 s, 301,234 requests, 301,170 answers, 100,402/s now`.
        public var line: String {
            let seconds = elapsed.components.seconds
            return "load: \(seconds) s, \(requests.grouped) requests, \(answers.grouped) answers, "
                + "\(Int(perSecond.rounded()).grouped)/s now"
        }
    }

    /// Reports for one run.
    struct Reporter: Sendable {
        let interval: Duration
        let report: @Sendable (Snapshot) -> Void
        let end: @Sendable () -> Void
    }

    private let makeReporterBody: @Sendable () -> Reporter?

    private init(_ makeReporter: @escaping @Sendable () -> Reporter?) {
        makeReporterBody = makeReporter
    }

    /// The reporter of a run that starts now, or `nil` for silence.
    func makeReporter() -> Reporter? { makeReporterBody() }

    /// Says nothing.
    public static var silent: LoadProgress { LoadProgress { nil } }

    /// Redraws a line on standard error once a second, when standard error is a terminal, and
    /// erases it when the run ends; says nothing otherwise.
    public static var standardError: LoadProgress {
        LoadProgress {
            guard isatty(2) != 0 else { return nil }
            let line = ProgressLine()
            return Reporter(interval: .seconds(1), report: { line.draw($0.line) }, end: { line.erase() })
        }
    }

    /// Hands a snapshot to `report` every `interval`, from the first interval on; on the clock's
    /// scheduler (a global queue for ``LoadClock/system``).
    ///
    /// - Parameters:
    ///   - interval: time between two snapshots; at least a millisecond.
    ///   - report: what to do with each.
    /// - Returns: the progress.
    public static func every(_ interval: Duration, _ report: @escaping @Sendable (Snapshot) -> Void) -> LoadProgress {
        let interval = max(interval, .milliseconds(1))
        return LoadProgress { Reporter(interval: interval, report: report, end: {}) }
    }
}

/// One line of standard error, redrawn in place (carriage return, erase to the end of the line).
@available(macOS 13, iOS 16, tvOS 16, watchOS 9, *)
private final class ProgressLine: Sendable {
    /// Whether a line is drawn, to erase; and whether the run has ended, after which nothing is
    /// drawn (a last snapshot may race with the end).
    private let state = LockedBox.make((isDrawn: false, hasEnded: false))

    func draw(_ text: String) {
        state.withLock { state in
            guard !state.hasEnded else { return }
            state.isDrawn = true
            // Written under the lock (a few dozen bytes to a terminal), so that the erase at the
            // end never lands in the middle of a line.
            StandardError.writeWithoutNewline("\r\u{1B}[K" + text)
        }
    }

    func erase() {
        state.withLock { state in
            if state.isDrawn { StandardError.writeWithoutNewline("\r\u{1B}[K") }
            state = (false, true)
        }
    }
}
