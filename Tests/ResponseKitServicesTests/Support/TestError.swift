/// The failure a scripted service answers with.
struct TestError: Error, Equatable, CustomStringConvertible {
    var service = ""
    var step = ""

    var description: String { "scripted failure" }
}
