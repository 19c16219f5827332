import ExampleSupport
import ResponseKit

/// A scene's view controller as the command-line navigator sees it: the stand-in for a
/// `UIViewController` on a navigation stack.
///
/// Command-line view controllers answer each command with a response that finishes once the
/// scene has displayed the outcome, so the command loop knows when to read the next command.
@MainActor
public protocol ConsoleScene: AnyObject {
    /// The commands the scene understands, one help line each.
    var commandHelp: [String] { get }

    /// Called when the scene comes on top of the stack: `viewDidLoad` and `viewWillAppear` in one.
    ///
    /// - Returns: a response that finishes once the scene has displayed its first content.
    func sceneDidAppear() -> ResponseKit.Response<Void>

    /// Runs `command` if the scene understands it.
    ///
    /// - Parameter command: what was typed.
    /// - Returns: a response that finishes once the outcome is displayed, or `nil` when the scene
    ///   does not know the command.
    func handle(_ command: TypedCommand) -> ResponseKit.Response<Void>?
}
