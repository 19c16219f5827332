import ResponseKit

/// A thread-safe list that callbacks append to and tests read, so that a `@Sendable` callback
/// can report what it saw without a data race.
///
/// <!-- example: fragment -->
/// ```swift
/// let (response, resolver) = Response<Int>.pending(on: .immediate)
/// let seen = Recorder<Int>()
/// response.onCompletion { seen.record($0) }
/// resolver.succeed(42)                 // .immediate: the callback has run when this returns
/// #expect(seen.values == [42])
/// ```
public final class Recorder<Element: Sendable>: Sendable {
    private let storage = LockedBox.make([Element]())

    /// Makes an empty recorder.
    public init() {}

    /// Appends `element`.
    ///
    /// - Parameter element: what a callback saw.
    public func record(_ element: Element) {
        storage.withLock { $0.append(element) }
    }

    /// Everything recorded so far, oldest first.
    public var values: [Element] { storage.withLock { $0 } }

    /// How many elements were recorded.
    public var count: Int { storage.withLock { $0.count } }
}
