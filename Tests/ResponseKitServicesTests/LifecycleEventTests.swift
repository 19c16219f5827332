import ResponseKitServices
import Testing

struct LifecycleEventTests {
    @Test func standardEvents_coverTheAppLifecycle_withDistinctNames() {
        let names = LifecycleEvent.standard.map(\.name)
        #expect(
            names == [
                "didFinishLaunching", "didBecomeActive", "willResignActive", "didEnterBackground",
                "willEnterForeground", "didReceiveMemoryWarning", "didReceiveReloadRequest", "willTerminate",
            ])
    }

    @Test func anAppDefinedEvent_equalsAnotherWithTheSameName_andMatchesInASwitch() {
        let custom = LifecycleEvent(name: "didReceiveSignificantTimeChange")
        #expect(custom == LifecycleEvent(name: "didReceiveSignificantTimeChange"))
        #expect(custom != .willTerminate)

        let matched: String =
            switch LifecycleEvent.willTerminate {
            case .didEnterBackground: "background"
            case .willTerminate: "terminate"
            default: "other"
            }
        #expect(matched == "terminate")
        #expect("\(custom)" == "didReceiveSignificantTimeChange")
    }
}
