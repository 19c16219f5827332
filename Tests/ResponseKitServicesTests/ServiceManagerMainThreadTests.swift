import Dispatch
import Foundation
import ResponseKit
import ResponseKitServices
import XCTest

/// The command-line pattern: `main.swift` drives the manager on the main thread and blocks on its
/// responses. XCTest runs synchronous tests on the main thread, which is what these cases need:
/// the manager continues on the main queue, so the blocking reads must keep servicing it.
final class ServiceManagerMainThreadTests: XCTestCase {
    func testRunsOnTheMainThread() {
        XCTAssertTrue(Thread.isMainThread, "the case below assumes XCTest's main-thread execution")
    }

    func testBlockingReadsOnTheMainThread_driveStartEventsAndStop() throws {
        try MainActor.assumeIsolated {
            let journal = Journal()
            let timer = ManualTimer()
            let manager = ServiceManager(timer: timer, onFailure: { _ in })
            let slow = ScriptedService(name: "slow", journal: journal, start: .hold, event: .hold, stop: .hold)
            try manager.register(slow)
            let starting = try manager.start()

            // Finished by a later main-queue job, which only runs if the blocking read services the queue.
            DispatchQueue.main.async { MainActor.assumeIsolated { _ = slow.held["start"]?.succeed() } }
            try starting.wait(timeout: .seconds(30))

            let sending = try manager.send(.didEnterBackground)
            DispatchQueue.main.async { MainActor.assumeIsolated { _ = slow.held["didEnterBackground"]?.succeed() } }
            try sending.wait(timeout: .seconds(30))

            let stopping = manager.stop()
            DispatchQueue.main.async { MainActor.assumeIsolated { _ = timer.fireAll() } }
            XCTAssertEqual((stopping.error as? ServiceManagerError)?.failedServiceNames, ["slow"])

            XCTAssertEqual(journal.lines, ["start slow", "slow handles didEnterBackground", "stop slow"])
            XCTAssertEqual(slow.handledOnMainQueue, [true])
        }
    }
}
