/// The work of one variant of a workload whose callbacks or answers arrive on the main queue (W6,
/// W7), made for a number of operations and ready to be timed.
///
/// Main-actor code sets the work going and returns without waiting, since the main queue must
/// stay free to deliver; the main-queue job that sees the last callback says so. That lets the
/// same work be timed whoever services the main queue (``MainQueueServicing``): the benchmark's
/// main thread running `RunLoop.main` (``MainRunLoop/measure(_:_:)``), or a child process parked
/// in `dispatchMain()` (``DispatchMainChild``).
@MainActor
struct MainQueueWork {
    /// The variant, for messages: `W6 floor`.
    let name: String
    /// Sets the work going, with the clock running, and returns at once. Calls `finished` from the
    /// main-queue job that sees the last callback, once.
    let start: (_ finished: @escaping @MainActor () -> Void) -> Void
    /// Run once the clock has stopped: traps unless every callback ran once with the right value,
    /// so that a broken variant fails the run instead of reporting a fast time.
    let check: () -> Void
}
