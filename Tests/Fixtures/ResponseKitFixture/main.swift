// A command-line program for the engine's tests, run as a child process: what a user's
// `main.swift` does with responses at the end of a program, where only the exit tells.
//
//   ResponseKitFixture lost-at-exit N   N `.main` deliveries queued, the main queue never serviced
//   ResponseKitFixture lost-with-handler one such delivery of a response with a cancellation
//                                        handler, which is released on the main queue too
//   ResponseKitFixture blocking-read    the main thread blocks on `value`: the delivery runs first
//   ResponseKitFixture serviced         `dispatchMain()` runs the delivery, which exits
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
default:
    print("usage: ResponseKitFixture lost-at-exit N | lost-with-handler | blocking-read | serviced")
    exit(64)
}
