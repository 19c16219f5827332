import ExampleSupport
import ResponseKit

/// What the presenter may ask of the "show contact" view controller.
@MainActor
public protocol ShowContactDisplayLogic: AnyObject {
    /// Shows the contact.
    func displayContact(viewModel: ShowContact.Display.ViewModel)
}

/// The "show contact" view controller, at the command line: prints a contact card.
@MainActor
public final class ShowContactViewController: ShowContactDisplayLogic, ConsoleScene {
    /// The scene's business logic.
    public var interactor: (any ShowContactBusinessLogic)?
    /// The scene's router, for data passing.
    public var router: ShowContactRouter?
    private let output: ConsoleOutput

    /// Makes the view controller; ``ShowContactConfigurator`` wires the rest of the scene.
    ///
    /// - Parameter output: where to print.
    public init(output: ConsoleOutput) {
        self.output = output
    }

    /// The scene's commands.
    public let commandHelp = ["back                           return to the list"]

    /// Shows the contact when the scene appears.
    public func sceneDidAppear() -> ResponseKit.Response<Void> {
        interactor?.displayContact(request: .init())  // synchronous: the contact is already here
        return .succeeded((), on: .immediate)
    }

    /// The scene has no commands of its own; `back` is the navigator's.
    public func handle(_ command: TypedCommand) -> ResponseKit.Response<Void>? {
        nil
    }

    /// Prints the card.
    public func displayContact(viewModel: ShowContact.Display.ViewModel) {
        output.writeLine("[\(viewModel.initials)] \(viewModel.name)")
        output.writeLine("     phone: \(viewModel.phone)")
    }
}
