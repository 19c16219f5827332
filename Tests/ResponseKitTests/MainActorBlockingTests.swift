import ResponseKit
import ResponseKitTesting
import Testing

/// The README's testing recipe, in a `@MainActor` Swift Testing test: advance a `ManualScheduler`,
/// then block on `value`, even where the answer needs a main-queue delivery first.
@MainActor
struct MainActorBlockingTests {
    final class Presenter {
        var shown: [Int] = []
    }

    @Test func advancingAManualScheduler_thenBlockingOnValue_passesEveryTime() throws {
        for round in 0..<1_000 {
            let scheduler = ManualScheduler()
            let presenter = Presenter()
            let (work, resolver) = Response<Int>.pending()  // delivers on .main
            let shown = Response<Int>.pending(on: .immediate)
            work.delay(by: .seconds(1), scheduler: scheduler).map { $0 + 1 }.mainActor.onCompletion { value in
                presenter.shown.append(value)
                shown.resolver.succeed(value)
            }
            resolver.succeed(round)
            scheduler.advance(by: .seconds(1))
            #expect(try shown.response.value == round + 1)  // needs the main-actor callback to run
            #expect(presenter.shown == [round + 1])
        }
    }
}
