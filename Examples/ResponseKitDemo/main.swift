import Dispatch
import Foundation
import ResponseKit

// The ResponseKit demo: one interactor, both styles, failure, timeout and cancellation.
// Runs to the end on its own (no input), so CI runs it too.

let greetUser = GreetUser()

// 1. Blocking style: reading `value` waits until the work is done, then returns or throws.
let text = try greetUser.execute(name: "Ada").value
print("[blocking] \(text)")

// 2. Callback style. Callbacks come back on the main queue (the default executor), exactly once.
//    A command-line program must keep the main queue running for them: here a blocking read on
//    the main thread does it, because it services the main queue while it waits.
let shown = Response<Void>.pending(on: .immediate)
greetUser.execute(name: "Grace")
    .onCompletion { text in
        print("[callback] \(text) (on the main thread: \(Thread.isMainThread))")
        shown.resolver.succeed()
    }
    .onFailure { error in
        print("[callback] failed: \(error)")
        shown.resolver.succeed()
    }
try shown.response.value

// 3. A failure, seen through the blocking `error` read.
if let error = greetUser.execute(name: "").error {
    print("[blocking] could not greet: \(error)")
}

// 4. A timeout, then cancelling the work so that it stops early.
let counting = CountSlowly().execute(to: 1_000)
do {
    _ = try counting.wait(timeout: .milliseconds(50))
} catch let error as ResponseError where error == .timedOut {
    print("[blocking] still counting after 50 ms: cancelling")
    counting.cancel()
}
if counting.error is CancellationError {
    print("[blocking] the count was cancelled")
}
print("done")
