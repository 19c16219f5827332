// A command-line program for the engine's tests, run as a child process: what a user's
// `main.swift` does with responses at the end of a program, where only the exit tells.
//
//   ResponseKitFixture lost-at-exit N   N `.main` deliveries queued, the main queue never serviced
//   ResponseKitFixture lost-with-handler one such delivery of a response with a cancellation
//                                        handler, which is released on the main queue too
//   ResponseKitFixture blocking-read    the main thread blocks on `value`: the delivery runs first
//   ResponseKitFixture serviced         `dispatchMain()` runs the delivery, which exits
//   ResponseKitFixture pool-stall       a read in a main-queue job, on work that waits for a thread
//                                        of Dispatch's stalled pool (a process of its own, so that
//                                        the stall does not hold up other tests)
import Dispatch
import Foundation
import ResponseKit

/// Work finished on a global queue, delivered on `.main`, as an interactor's.
func later(_ value: Int) -> Response<Int> {
    Response(on: .global()) { value }
}

/// Waits until `response` is done without servicing the main queue: the `.immediate` callback,
/// registered after the `.main` ones, runs once they are queued.
func waitWithoutServicingTheMainQueue(for response: Response<Int>) {
    let done = DispatchSemaphore(value: 0)
    response.onResult(on: .immediate) { _ in done.signal() }
    done.wait()
}

/// Blocks every worker thread of Dispatch's global pool, and queues one more job behind them
/// (libdispatch adds a thread a second to a pool whose threads all sleep, so work queued now waits
/// one to two seconds), then reads work queued after them from a main-queue job: printed, and the
/// process exits. Nothing is bound on the main thread's stack, which `dispatchMain()` ends.
func readInAMainQueueJobWhileThePoolStalls() {
    let blockers = ProcessInfo.processInfo.activeProcessorCount + 1
    let release = DispatchSemaphore(value: 0)
    for _ in 0..<blockers {
        DispatchQueue.global().async { release.wait() }
    }
    let response = Response<Int>(on: .global()) { 42 }
    DispatchQueue.main.async {
        let value = (try? response.value) ?? -1
        print("read \(value), on the main thread: \(Thread.isMainThread)")
        for _ in 0..<blockers { release.signal() }
        exit(0)
    }
}

let arguments = CommandLine.arguments.dropFirst()
switch arguments.first {
case "lost-at-exit":
    let count = arguments.dropFirst().first.flatMap { Int($0) } ?? 1
    for index in 0..<count {
        let response = later(index)
        response.onCompletion { print("delivered \($0)") }
        waitWithoutServicingTheMainQueue(for: response)
    }
    print("exiting")
case "lost-with-handler":
    // Finished on this thread, so both of its main-queue jobs (the delivery, then the handler's
    // release) are queued before the exit.
    let (response, resolver) = Response<Int>.pending()
    resolver.onCancel {}
    response.onCompletion { print("delivered \($0)") }
    resolver.succeed(1)
    print("exiting")
case "blocking-read":
    let response = later(1)
    response.onCompletion { print("delivered \($0)") }
    print("read \(try response.value)")
case "serviced":
    // Not bound to a name: dispatchMain() ends the main thread, and a reference left on its
    // stack would be reported as a leak by LeakSanitizer.
    later(1).onCompletion {
        print("delivered \($0)")
        exit(0)
    }
    dispatchMain()
case "pool-stall":
    readInAMainQueueJobWhileThePoolStalls()
    dispatchMain()
default:
    print("usage: ResponseKitFixture lost-at-exit N | lost-with-handler | blocking-read | serviced | pool-stall")
    exit(64)
}
