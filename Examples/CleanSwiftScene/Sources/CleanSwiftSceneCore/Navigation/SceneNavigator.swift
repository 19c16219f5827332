import ResponseKit

/// A navigation stack of scenes, for the command line: the scene on top receives the commands.
@MainActor
public final class SceneNavigator {
    /// The scenes, bottom first.
    public private(set) var stack: [any ConsoleScene] = []

    /// Makes an empty stack.
    public init() {}

    /// The scene that receives commands.
    public var top: (any ConsoleScene)? { stack.last }

    /// Puts `scene` on top and lets it appear.
    ///
    /// - Parameter scene: the new top scene.
    /// - Returns: a response that finishes once the scene has displayed its first content.
    @discardableResult
    public func push(_ scene: any ConsoleScene) -> Response<Void> {
        stack.append(scene)
        return scene.sceneDidAppear()
    }

    /// Removes the top scene, unless it is the only one.
    ///
    /// - Returns: whether a scene was removed.
    @discardableResult
    public func pop() -> Bool {
        guard stack.count > 1 else { return false }
        stack.removeLast()
        return true
    }
}
