import Dispatch
import ResponseKit
import ResponseKitTesting
import Testing

/// A blocking read that returns on the main queue has run every `.main` delivery and main-actor
/// callback registered on the response before the read: the seed's own testing use (call the
/// interactor, hand the response to the presenter, read the result, check the presenter).
///
/// Swift Testing runs a `@MainActor` test inside a main-queue job (off the main thread on Linux):
/// these are the waits inside a main-queue job. `MainThreadSettlingTests` (XCTest) covers the main
/// thread itself.
@MainActor
struct BlockingReadSettlesMainQueueTests {
    struct Profile: Sendable, Equatable {
        let name: String
    }

    /// The interactor: answers from a global queue, delivers on `.main`.
    struct LoadProfile {
        /// The line its responses report as their creation site: one no other test uses, so
        /// that the diagnostics about them can be picked out.
        static let creationLine: UInt = 90_001

        func execute(userID: Int) -> Response<Profile> {
            let (response, resolver) = Response<Profile>.pending(line: Self.creationLine)
            DispatchQueue.global().async { resolver.succeed(Profile(name: "Ada \(userID)")) }
            return response
        }
    }

    @MainActor
    final class ProfilePresenter {
        var title = ""
        var shown: [String] = []

        func present(_ response: Response<Profile>) {
            response.mainActor
                .onCompletion { profile in
                    self.title = profile.name
                    self.shown.append(profile.name)
                }
                .onFailure { _ in self.title = "error" }
        }
    }

    // MARK: - the shape, 1,000 times

    @Test func presenterShowsTheName_afterABlockingRead_everyTime() throws {
        startRecordingDiagnostics()
        for round in 0..<1_000 {
            let presenter = ProfilePresenter()
            let response = LoadProfile().execute(userID: round)
            presenter.present(response)
            _ = try response.value
            #expect(presenter.title == "Ada \(round)")
            #expect(presenter.shown.count == 1)
        }
        // Waits on work a global queue finishes are not a blocked main queue. (Long waits are left
        // out: a test running meanwhile may lower the process-wide threshold to milliseconds.)
        #expect(diagnostics(forResponseCreatedAt: LoadProfile.creationLine).filter { $0.kind != .longWait }.isEmpty)
    }

    @Test func presenterShowsTheName_whenTheWorkFinishedBeforeTheRead() throws {
        for round in 0..<1_000 {
            let presenter = ProfilePresenter()
            let (response, resolver) = Response<Profile>.pending()
            presenter.present(response)
            resolver.succeed(Profile(name: "Ada \(round)"))  // done, its delivery queued
            #expect(presenter.title == "")
            _ = try response.value
            #expect(presenter.title == "Ada \(round)")
        }
    }

    @Test func everyBlockingRead_settlesThePresenter() throws {
        let reads: [(Response<Profile>) throws -> Void] = [
            { _ = try $0.value },
            { _ = $0.error },
            { _ = $0.result },
            { _ = try $0.wait(timeout: .seconds(30)) },
        ]
        for (index, read) in reads.enumerated() {
            for round in 0..<100 {
                let presenter = ProfilePresenter()
                let response = LoadProfile().execute(userID: round)
                presenter.present(response)
                try read(response)
                #expect(presenter.title == "Ada \(round)", "read \(index)")
            }
        }
    }

    @Test func aZeroTimeoutOnADoneResponse_settlesThePresenterToo() throws {
        let presenter = ProfilePresenter()
        let (response, resolver) = Response<Profile>.pending()
        presenter.present(response)
        resolver.succeed(Profile(name: "Ada"))
        _ = try response.wait(timeout: .zero)
        #expect(presenter.title == "Ada")
    }

    // MARK: - order and exactly once

    @Test func mainAndMainActorCallbacks_runInRegistrationOrder_exactlyOnce() throws {
        for round in 0..<200 {
            let order = Recorder<String>()
            var onMainActor: [String] = []
            let (response, resolver) = Response<Int>.pending()
            response.onCompletion { _ in order.record("main 1") }
            response.mainActor.onCompletion { _ in
                order.record("actor 2")
                onMainActor.append("actor 2")
            }
            response.onResult { _ in order.record("main 3") }
            response.mainActor.onResult { _ in order.record("actor 4") }
            if round.isMultiple(of: 2) {
                resolver.succeed(round)
            } else {
                DispatchQueue.global().async { resolver.succeed(round) }
            }
            #expect(try response.value == round)
            #expect(order.values == ["main 1", "actor 2", "main 3", "actor 4"])
            #expect(onMainActor == ["actor 2"])
            // A second read, and the main queue's own drain later, run nothing again.
            _ = try response.value
            #expect(order.values.count == 4)
        }
    }

    @Test func deliveriesOfAnotherResponseQueuedEarlier_runFirst() throws {
        for round in 0..<200 {
            let presenter = ProfilePresenter()
            let (first, firstResolver) = Response<Profile>.pending()
            let (second, secondResolver) = Response<Profile>.pending()
            presenter.present(first)
            presenter.present(second)
            firstResolver.succeed(Profile(name: "first \(round)"))
            DispatchQueue.global().async { secondResolver.succeed(Profile(name: "second \(round)")) }
            _ = try second.value
            #expect(presenter.shown == ["first \(round)", "second \(round)"])
        }
    }

    @Test func aFailureReachesThePresenter_beforeTheReadThrows() {
        let presenter = ProfilePresenter()
        let (response, resolver) = Response<Profile>.pending()
        presenter.present(response)
        DispatchQueue.global().async { resolver.fail(TestError()) }
        #expect(throws: TestError.self) { try response.value }
        #expect(presenter.title == "error")
    }

    @Test func theEndOfAChainObservedByThePresenter_isSettledByReadingIt() throws {
        for round in 0..<200 {
            let presenter = ProfilePresenter()
            let shown = LoadProfile().execute(userID: round).map { Profile(name: $0.name.uppercased()) }
            presenter.present(shown)
            _ = try shown.value
            #expect(presenter.title == "ADA \(round)")
        }
    }

    @Test func aCallbackRegisteredAfterTheRead_isNotRunByIt() throws {
        let (response, resolver) = Response<Int>.pending()
        resolver.succeed(1)
        _ = try response.value
        let ran = Recorder<Int>()
        response.onCompletion { ran.record($0) }  // queued for the main queue's own drain
        #expect(ran.values.isEmpty)
        _ = try response.value  // a later read settles it
        #expect(ran.values == [1])
    }
}
