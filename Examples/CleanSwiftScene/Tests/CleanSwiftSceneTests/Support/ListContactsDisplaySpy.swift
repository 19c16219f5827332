import CleanSwiftSceneCore

/// Records the view models the presenter hands the view controller.
@MainActor
final class ListContactsDisplaySpy: ListContactsDisplayLogic {
    private(set) var fetchViewModels: [ListContacts.FetchContacts.ViewModel] = []
    private(set) var selectViewModels: [ListContacts.SelectContact.ViewModel] = []

    func displayFetchContacts(viewModel: ListContacts.FetchContacts.ViewModel) {
        fetchViewModels.append(viewModel)
    }

    func displaySelectContact(viewModel: ListContacts.SelectContact.ViewModel) {
        selectViewModels.append(viewModel)
    }
}

/// Records the view models the "show contact" presenter hands its view controller.
@MainActor
final class ShowContactDisplaySpy: ShowContactDisplayLogic {
    private(set) var viewModels: [ShowContact.Display.ViewModel] = []

    func displayContact(viewModel: ShowContact.Display.ViewModel) {
        viewModels.append(viewModel)
    }
}
