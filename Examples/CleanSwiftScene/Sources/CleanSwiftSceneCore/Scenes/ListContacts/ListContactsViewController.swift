import ExampleSupport
import ResponseKit

/// What the presenter may ask of the "list contacts" view controller.
@MainActor
public protocol ListContactsDisplayLogic: AnyObject {
    /// Shows the list, or why it could not be loaded.
    func displayFetchContacts(viewModel: ListContacts.FetchContacts.ViewModel)
    /// Opens the contact picked, or says what was wrong.
    func displaySelectContact(viewModel: ListContacts.SelectContact.ViewModel)
}

/// The "list contacts" view controller, at the command line: turns commands into requests for
/// the interactor, and view models into printed lines.
///
/// ```
/// Contacts
///   1. Ada Lovelace        (212) 555-0199
///   2. Grace Hopper        (212) 555-0142
/// ```
@MainActor
public final class ListContactsViewController: ListContactsDisplayLogic, ConsoleScene {
    /// The scene's business logic.
    public var interactor: (any ListContactsBusinessLogic)?
    /// Where to go next.
    public var router: (any ListContactsRoutingLogic)?
    private let output: ConsoleOutput
    /// Finishes the response of the command being run, once its outcome is displayed.
    private var displayed: Resolver<Void>?

    /// Makes the view controller; ``ListContactsConfigurator`` wires the rest of the scene.
    ///
    /// - Parameter output: where to print.
    public init(output: ConsoleOutput) {
        self.output = output
    }

    /// The scene's commands.
    public let commandHelp = [
        "list                           show the contacts again",
        "show <number>                  open a contact, such as: show 2",
    ]

    /// Fetches the contacts when the scene appears.
    public func sceneDidAppear() -> ResponseKit.Response<Void> {
        run { interactor?.fetchContacts(request: .init()) }
    }

    /// `list` and `show <number>`.
    public func handle(_ command: TypedCommand) -> ResponseKit.Response<Void>? {
        switch command.name {
        case "list": run { interactor?.fetchContacts(request: .init()) }
        case "show", "open": run { interactor?.selectContact(request: .init(typedNumber: command.remainder)) }
        default: nil
        }
    }

    /// Prints the list, or the error.
    public func displayFetchContacts(viewModel: ListContacts.FetchContacts.ViewModel) {
        if let error = viewModel.errorMessage {
            output.writeLine("error: \(error)")
        } else if viewModel.displayedContacts.isEmpty {
            output.writeLine("No contacts.")
        } else {
            output.writeLine("Contacts")
            for (index, contact) in viewModel.displayedContacts.enumerated() {
                let name = contact.name.padded(to: 20)
                output.writeLine("  \(index + 1). \(name)\(contact.phone)")
            }
        }
        finishCommand()
    }

    /// Routes to the contact, or prints what was wrong.
    public func displaySelectContact(viewModel: ListContacts.SelectContact.ViewModel) {
        guard viewModel.isSelected, let router else {
            output.writeLine("error: \(viewModel.errorMessage ?? "no contact was selected")")
            finishCommand()
            return
        }
        let resolver = displayed
        displayed = nil
        router.routeToShowContact().onCompletion { _ in resolver?.succeed() }
    }

    /// Starts a command; its response finishes when ``finishCommand()`` is next called.
    private func run(_ request: () -> Void) -> ResponseKit.Response<Void> {
        let (response, resolver) = ResponseKit.Response<Void>.pending(on: .immediate)
        displayed = resolver
        request()
        return response
    }

    private func finishCommand() {
        displayed?.succeed()
        displayed = nil
    }
}

extension String {
    /// The string followed by spaces up to `width` characters, and at least one.
    func padded(to width: Int) -> String {
        self + String(repeating: " ", count: max(1, width - count))
    }
}
