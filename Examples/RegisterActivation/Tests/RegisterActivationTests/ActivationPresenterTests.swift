import RegisterActivationCore
import ResponseKitTesting
import Testing

@Suite(.responseChecks)
struct ActivationPresenterTests {
    @Test func anActiveRegister_showsTheStore_theNumber_andTheLicenceKey() {
        let register = ActivatedRegister(storeName: "Corner Shop", registerNumber: 2, licenceKey: "CS-2-5CCD")

        let viewModel = ActivationPresenter.viewModel(for: .success(register))

        #expect(
            viewModel
                == ActivationViewModel(
                    isActivated: true,
                    title: "Register 2 of Corner Shop is active.",
                    detail: "Licence key: CS-2-5CCD"
                ))
    }

    @Test func wrongCredentials_sayWhatIsWrong() {
        let viewModel = ActivationPresenter.viewModel(for: .failure(RegisterActivationError.wrongCredentials))

        #expect(!viewModel.isActivated)
        #expect(viewModel.title == "Activation failed.")
        #expect(viewModel.detail == "Wrong login or password for this store.")
    }

    @Test func aTimeout_saysHowLongWeWaited_andWhatToDo() {
        let viewModel = ActivationPresenter.viewModel(
            for: .failure(RegisterActivationError.timedOut(after: .milliseconds(1500))))

        #expect(viewModel.detail == "The server did not answer within 1.5 s: check the connection and try again.")
    }

    @Test func anEmptyField_isNamed() {
        let viewModel = ActivationPresenter.viewModel(
            for: .failure(RegisterActivationError.missingField(.registerNumber)))

        #expect(viewModel.detail == "The register number is empty: please fill it in.")
    }

    @Test func cancellation_saysNothingChanged() {
        let viewModel = ActivationPresenter.viewModel(for: .failure(CancellationError()))

        #expect(
            viewModel
                == ActivationViewModel(
                    isActivated: false, title: "Activation cancelled.", detail: "Nothing was changed."))
    }

    @Test func anUnexpectedError_isShown_notSwallowed() {
        struct DiskFull: Error, CustomStringConvertible { var description: String { "disk full" } }

        let viewModel = ActivationPresenter.viewModel(for: .failure(DiskFull()))

        #expect(viewModel.detail == "Unexpected error: disk full")
    }
}
