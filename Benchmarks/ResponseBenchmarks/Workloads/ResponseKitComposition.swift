/// ResponseKit's side of W3 and W5, which use the composition operators `map` and `Response.all`.
///
/// Kept apart from the floors so that the workloads compile without the operators. This engine
/// does not have them yet, so both variants are `nil` and the table shows "—" with the notes
/// below. When they land, this is the only file to change: return variants whose bodies mirror
/// the floors (`W3MapChain.floor(operations:)`, `W5FanIn.floor(elements:)`) with
/// `Response<Int>.pending(on: .immediate)`, `.map { $0 &+ 1 }` and `Response.all(inputs)`, and
/// check their tallies with `W3MapChain.expect` and `W5FanIn.expect`.
@available(macOS 15, iOS 18, tvOS 18, watchOS 11, *)
enum ResponseKitComposition {
    static var mapChain: Variant? { nil }
    static var fanIn: Variant? { nil }

    static let missingMap = "this engine has no `map` (the composition issue adds it)"
    static let missingAll = "this engine has no `Response.all` (the composition issue adds it)"
}
