import Testing

@testable import ResponseKitServices

/// When a report of memory pressure becomes a warning: at most one per window, none once stopped.
struct MemoryPressureStateTests {
    /// What happens to the state, at a time counted from the first report.
    enum Step: CustomStringConvertible {
        case pressure(at: Duration)
        case stop

        var description: String {
            switch self {
            case .pressure(let offset): "pressure at \(offset)"
            case .stop: "stop"
            }
        }
    }

    /// Each row: what it shows, the steps, and the action each step returns (window 2 s).
    static let table: [(String, [Step], [MemoryPressureState.Action?])] = [
        ("the first report warns", [.pressure(at: .zero)], [.sendWarning]),
        (
            "reports within the window after a warning are dropped",
            [.pressure(at: .zero), .pressure(at: .seconds(1)), .pressure(at: .milliseconds(1999))],
            [.sendWarning, nil, nil]
        ),
        (
            "a report a whole window after the last warning warns again",
            [.pressure(at: .zero), .pressure(at: .seconds(2)), .pressure(at: .seconds(4))],
            [.sendWarning, .sendWarning, .sendWarning]
        ),
        (
            "the window counts from the last warning, not from the last report",
            [
                .pressure(at: .zero), .pressure(at: .milliseconds(1500)), .pressure(at: .milliseconds(2500)),
                .pressure(at: .seconds(4)),
            ],
            [.sendWarning, nil, .sendWarning, nil]
        ),
        (
            "a report older than the last warning is dropped",
            [.pressure(at: .seconds(5)), .pressure(at: .seconds(4))], [.sendWarning, nil]
        ),
        (
            "stopping stops the monitor once, and no report warns after it",
            [.pressure(at: .zero), .stop, .pressure(at: .seconds(10)), .stop],
            [.sendWarning, .stopMonitor, nil, nil]
        ),
        ("stopping before any report", [.stop, .pressure(at: .zero)], [.stopMonitor, nil]),
    ]

    @Test func eachStepReturnsTheTablesAction() {
        let start = ContinuousClock.now
        for (row, steps, expected) in Self.table {
            var state = MemoryPressureState(window: .seconds(2))
            let actions = steps.map { step in
                switch step {
                case .pressure(let offset): state.pressureReported(at: start + offset)
                case .stop: state.stopRequested()
                }
            }
            #expect(actions == expected, "\(row): \(steps)")
        }
    }

    @Test func theLastWarningIsRemembered_untilStopped() {
        let start = ContinuousClock.now
        var state = MemoryPressureState(window: .seconds(2))
        #expect(state.phase == .watching(lastWarning: nil))

        _ = state.pressureReported(at: start)
        _ = state.pressureReported(at: start + .seconds(1))
        #expect(state.phase == .watching(lastWarning: start))

        _ = state.stopRequested()
        #expect(state.phase == .stopped)
    }
}
