import Dispatch
import Foundation
import ResponseKit

/// An interactor whose work takes a while and stops early when its response is cancelled.
struct CountSlowly {
    func execute(to limit: Int) -> Response<Int> {
        let (response, resolver) = Response<Int>.pending()
        resolver.onCancel { print("[work] told to stop") }
        DispatchQueue.global().async {
            var count = 0
            while count < limit {
                if resolver.isCancelled { return }  // stop early: nobody wants the count any more
                count += 1
                Thread.sleep(forTimeInterval: 0.01)  // simulated slow work, one step
            }
            resolver.succeed(count)
        }
        return response
    }
}
