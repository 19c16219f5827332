/// Runs a step of the manager again and again, never inside itself.
///
/// A service that answers at once has its answer handled inside the call that asked it, and that
/// handling asks the next service: started (or stopped) one inside the other, three thousand
/// services overflowed the stack. Asked to run while it runs, the loop instead notes it and runs
/// the step again once the current run returns. The step looks at the manager's state to decide
/// what to do, so running it later, or once more than needed, does the same.
@MainActor
final class FlatLoop {
    private var isRunning = false
    private var mustRunAgain = false

    /// Runs `step` now, or, when called from inside `step`, once the running `step` returns.
    func run(_ step: () -> Void) {
        guard !isRunning else {
            mustRunAgain = true
            return
        }
        isRunning = true
        defer { isRunning = false }
        repeat {
            mustRunAgain = false
            step()
        } while mustRunAgain
    }
}
