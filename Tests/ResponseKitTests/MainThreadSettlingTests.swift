import Dispatch
import Foundation
import ResponseKit
import ResponseKitTesting
import XCTest

/// XCTest runs synchronous tests on the main thread, outside any main-queue job: a blocking read
/// there returns only once the `.main` and main-actor deliveries registered before it have run,
/// as it does inside a main-queue job (`BlockingReadSettlesMainQueueTests`).
final class MainThreadSettlingTests: XCTestCase {
    struct Profile: Sendable, Equatable {
        let name: String
    }

    @MainActor
    final class ProfilePresenter {
        var title = ""
        var shown: [String] = []

        func present(_ response: Response<Profile>) {
            response.mainActor.onCompletion { profile in
                self.title = profile.name
                self.shown.append(profile.name)
            }
        }
    }

    static func loadProfile(_ userID: Int) -> Response<Profile> {
        let (response, resolver) = Response<Profile>.pending()
        DispatchQueue.global().async { resolver.succeed(Profile(name: "Ada \(userID)")) }
        return response
    }

    func testRunsOnTheMainThread() {
        XCTAssertTrue(Thread.isMainThread, "the cases below assume XCTest's main-thread execution")
    }

    func testPresenterShowsTheName_afterABlockingRead_everyTime() throws {
        // XCTest runs it on the main thread, outside any main-queue job.
        try MainActor.assumeIsolated {
            for round in 0..<1_000 {
                let presenter = ProfilePresenter()
                let response = Self.loadProfile(round)
                presenter.present(response)
                _ = try response.value
                XCTAssertEqual(presenter.title, "Ada \(round)")
            }
        }
    }

    func testPresenterShowsTheName_whenTheWorkFinishedBeforeTheRead() throws {
        // XCTest runs it on the main thread, outside any main-queue job.
        try MainActor.assumeIsolated {
            for round in 0..<1_000 {
                let presenter = ProfilePresenter()
                let (response, resolver) = Response<Profile>.pending()
                presenter.present(response)
                resolver.succeed(Profile(name: "Ada \(round)"))
                _ = try response.value
                XCTAssertEqual(presenter.title, "Ada \(round)")
            }
        }
    }

    func testMainCallbacks_haveRun_whenTheReadReturns() throws {
        for round in 0..<1_000 {
            let seen = Recorder<Int>()
            let response = Response<Int>(on: .global()) { round }  // delivers on .main
            response.onCompletion { seen.record($0) }
            response.onResult { _ in seen.record(-1) }
            XCTAssertEqual(try response.wait(timeout: .seconds(30)), round)
            XCTAssertEqual(seen.values, [round, -1])
        }
    }

    func testDeliveriesOfAnotherResponseQueuedEarlier_runFirst() throws {
        // XCTest runs it on the main thread, outside any main-queue job.
        try MainActor.assumeIsolated {
            for round in 0..<200 {
                let presenter = ProfilePresenter()
                let (first, firstResolver) = Response<Profile>.pending()
                let (second, secondResolver) = Response<Profile>.pending()
                presenter.present(first)
                presenter.present(second)
                firstResolver.succeed(Profile(name: "first"))
                DispatchQueue.global().async { secondResolver.succeed(Profile(name: "second")) }
                _ = try second.value
                XCTAssertEqual(presenter.shown, ["first", "second"], "round \(round)")
            }
        }
    }

    /// Inside a `DispatchQueue.main` block on the main thread, where the run loop cannot run.
    func testInsideAMainQueueJobOnTheMainThread_theReadSettlesThePresenter() throws {
        let checked = Response<[String]>.pending(on: .immediate)
        DispatchQueue.main.async {
            MainActor.assumeIsolated {
                var titles: [String] = []
                for round in 0..<200 {
                    let presenter = ProfilePresenter()
                    let response = Self.loadProfile(round)
                    presenter.present(response)
                    _ = try? response.value
                    titles.append(presenter.title)
                }
                checked.resolver.succeed(titles)
            }
        }
        XCTAssertEqual(try checked.response.value, (0..<200).map { "Ada \($0)" })
    }
}
