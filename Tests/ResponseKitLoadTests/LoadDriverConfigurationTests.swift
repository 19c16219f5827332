import ResponseKit
import ResponseKitLoad
import Testing

/// A configuration that cannot run fails the run's response with a reason, instead of trapping
/// (a release build's trap would not even say why).
struct LoadDriverConfigurationTests {
    @Test(arguments: [
        (LoadDriver.Mode.closedLoop(inFlight: 0), LoadDriver.Length.requests(10), "inFlight: 0"),
        (.closedLoop(inFlight: -3), .requests(10), "inFlight: -3"),
        (.openLoop(perSecond: 0), .requests(10), "perSecond: 0.0"),
        (.openLoop(perSecond: .infinity), .requests(10), "perSecond: inf"),
        (.openLoop(perSecond: .nan), .requests(10), "perSecond: nan"),
        (.closedLoop(inFlight: 1), .requests(-1), ".requests(-1)"),
        (.closedLoop(inFlight: 1), .duration(.seconds(-1)), ".duration(-1.0 seconds)"),
    ])
    func anImpossibleRun_failsWithTheReason(mode: LoadDriver.Mode, length: LoadDriver.Length, named: String) {
        let report = LoadDriver(mode, for: length, progress: .silent).run(on: .immediate) { (index: Int) in
            Response<Int>.succeeded(index, on: .immediate)
        }
        let failure = report.error as? LoadDriver.InvalidConfiguration
        #expect(failure != nil, "\(String(describing: report.error))")
        #expect(failure?.reason.contains(named) == true, "\(failure?.reason ?? "none")")
        #expect(failure?.description.hasPrefix("LoadDriver: ") == true)
    }

    @Test func aNegativeWarmUpOrDrainTimeout_failsToo() {
        let warmUp = LoadDriver(.closedLoop(inFlight: 1), for: .requests(1), warmUp: .requests(-2), progress: .silent)
        #expect(
            warmUp.run(on: .immediate) { Response<Int>.succeeded(1, on: .immediate) }.error
                is LoadDriver.InvalidConfiguration)
        let drain = LoadDriver(
            .closedLoop(inFlight: 1), for: .requests(1), drainTimeout: .seconds(-1), progress: .silent)
        #expect(
            drain.run(on: .immediate) { Response<Int>.succeeded(1, on: .immediate) }.error
                is LoadDriver.InvalidConfiguration)
    }

    @Test func aValidRun_isNotRefused() throws {
        let report = try LoadDriver(.closedLoop(inFlight: 2), for: .requests(10), progress: .silent)
            .run(on: .immediate) { (index: Int) in Response<Int>.succeeded(index, on: .immediate) }.value
        #expect(report.completed == 10)
    }
}
