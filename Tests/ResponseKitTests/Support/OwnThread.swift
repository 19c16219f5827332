import Foundation
import ResponseKit

/// Runs `body` on a thread of its own and awaits its result.
///
/// For tests that block (`value`, `wait(timeout:)`): Swift Testing runs tests on the cooperative
/// pool, which has one thread per core (two here). A test that blocks a pool thread while the work
/// it waits for needs one (a `Task`, or a Dispatch worker once the pool is busy) can stall or
/// deadlock the whole run. A thread of the test's own has no such limit.
func onOwnThread<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
    let (response, resolver) = Response<T>.pending(on: .immediate)
    let thread = Thread { resolver.resolve(with: Result { try body() }) }
    thread.start()
    return try await response.get()
}
