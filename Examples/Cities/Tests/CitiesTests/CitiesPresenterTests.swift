import CitiesCore
import ResponseKit
import ResponseKitTesting
import Testing

/// The presenter, fed responses a test finishes by hand and delivered by a ManualExecutor.
@Suite(.responseChecks)
@MainActor
struct CitiesPresenterTests {
    let manual = ManualExecutor()
    let view = CitiesViewSpy()
    let presenter = CitiesPresenter()

    init() {
        presenter.view = view
    }

    func pending<Value>(_: Value.Type) -> (Response<Value>, Resolver<Value>) {
        Response<Value>.pending(on: manual.executor)
    }

    @Test func theList_isNumberedInTheOrderAdded_underAHeadlineWithTheCount() {
        let (response, resolver) = pending([City].self)
        presenter.presentCities(response)

        resolver.succeed([City(name: "Paris"), City(name: "Lima")])
        #expect(view.shown.isEmpty, "nothing is shown before the answer is delivered")
        manual.runAll()

        #expect(view.shown == [.list(CitiesViewModel(title: "Your cities (2)", rows: ["1. Paris", "2. Lima"]))])
    }

    @Test func anEmptyList_saysHowToAddOne() {
        let (response, resolver) = pending([City].self)
        presenter.presentCities(response)

        resolver.succeed([])
        manual.runAll()

        #expect(view.shown == [.list(CitiesViewModel(title: "No cities yet: add one, such as: add Paris", rows: []))])
    }

    @Test func anAddition_saysWhichCity_andShowsTheNewList() {
        let (response, resolver) = pending(CitiesChange.self)
        presenter.presentAdded(response)

        resolver.succeed(CitiesChange(city: City(name: "Lima"), cities: [City(name: "Paris"), City(name: "Lima")]))
        manual.runAll()

        #expect(
            view.shown == [
                .list(CitiesViewModel(title: "Your cities (2)", rows: ["1. Paris", "2. Lima"], message: "Added Lima."))
            ])
    }

    @Test func namesWithControlCharacters_areShownEscaped_inTheMessageAndTheList() {
        let hostile = City(name: "Paris\u{1B}[2J")

        let viewModel = CitiesPresenter.viewModel(for: [hostile], message: "\(CitiesError.alreadyListed(hostile.name))")

        #expect(viewModel.rows == ["1. Paris\\u{1B}[2J"])
        #expect(viewModel.message == "Paris\\u{1B}[2J is already on the list.")
    }

    @Test func aDeletion_saysWhichCity_andShowsTheNewList() {
        let (response, resolver) = pending(CitiesChange.self)
        presenter.presentDeleted(response)

        resolver.succeed(CitiesChange(city: City(name: "Paris"), cities: []))
        manual.runAll()

        #expect(
            view.shown == [
                .list(
                    CitiesViewModel(
                        title: "No cities yet: add one, such as: add Paris", rows: [], message: "Deleted Paris."))
            ])
    }

    @Test func aRefusal_isShownAsAnError() {
        let (response, resolver) = pending(CitiesChange.self)
        presenter.presentAdded(response)

        resolver.fail(CitiesError.alreadyListed("Paris"))
        manual.runAll()

        #expect(view.shown == [.error("Paris is already on the list.")])
    }

    @Test func aDamagedFile_isShownWithItsPath_andWhatToDo() {
        let (response, resolver) = pending([City].self)
        presenter.presentCities(response)

        resolver.fail(CitiesFileError.damaged(path: "/data/cities.json", reason: "the file is empty"))
        manual.runAll()

        #expect(
            view.shown == [
                .error(
                    "The cities file /data/cities.json is damaged (the file is empty). It was left untouched, so nothing is lost: "
                        + "repair it, or move it away to start a new list, then try again."
                )
            ])
    }

    @Test func shownFinishesOnceTheViewIsUpdated_whateverTheOutcome() {
        let (succeeding, success) = pending([City].self)
        let (failing, failure) = pending([City].self)
        let shownAfterSuccess = presenter.presentCities(succeeding)
        let shownAfterFailure = presenter.presentCities(failing)

        success.succeed([])
        failure.fail(CitiesError.emptyName)
        #expect(!shownAfterSuccess.isDone && !shownAfterFailure.isDone)
        manual.runAll()

        #expect(shownAfterSuccess.isSuccessful && shownAfterFailure.isSuccessful)
    }
}
