/// A failure for tests to throw and recognise.
struct TestError: Error, Equatable {
    var code = 1
}

/// An object whose lifetime tests watch through a weak reference.
final class Sentinel: Sendable {}
