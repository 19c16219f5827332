/// Where the app called the manager: the `#fileID` and line of a ``ServiceManager`` call, so
/// that errors name the app's code (`App/main.swift:12`) rather than the library's.
struct CallSite: Sendable, CustomStringConvertible {
    let file: String
    let line: Int

    init(file: StaticString, line: UInt) {
        self.file = "\(file)"
        self.line = Int(line)
    }

    /// `File.swift:12`.
    var description: String {
        "\(file):\(line)"
    }
}
