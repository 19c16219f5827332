import Testing

@testable import ResponseKitServices

/// What the app's choice writes into the kernel: the PSI trigger, in microseconds.
struct MemoryPressureWatchTests {
    typealias Watch = ServiceRunner.MemoryPressureWatch

    @Test func theDefault_isSystemdsThreshold_aStallOf200msIn2s() {
        #expect(Watch.default.trigger == "some 200000 2000000")
        #expect(Watch.default.window == .seconds(2))
        #expect(Watch.default == .threshold(stall: .milliseconds(200), window: .seconds(2)))
    }

    @Test func aThreshold_isWrittenInMicroseconds() {
        let watch = Watch.threshold(stall: .microseconds(150_500), window: .seconds(4))

        #expect(watch.trigger == "some 150500 4000000")
        #expect(watch.window == .seconds(4))
        #expect(watch.description == "some 150500 4000000")
    }

    @Test func off_hasNoTriggerAndNoWindow() {
        #expect(Watch.off.trigger == nil)
        #expect(Watch.off.window == nil)
        #expect(Watch.off.description == "off")
    }

    @Test func aStallLongerThanTheWindow_traps() async {
        await #expect(processExitsWith: .failure) {
            _ = ServiceRunner.MemoryPressureWatch.threshold(stall: .seconds(3), window: .seconds(2))
        }
    }

    @Test func aWindowLongerThanTheKernelMeasures_traps() async {
        await #expect(processExitsWith: .failure) {
            _ = ServiceRunner.MemoryPressureWatch.threshold(stall: .seconds(1), window: .seconds(20))
        }
    }
}
