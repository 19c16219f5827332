import Dispatch
import ResponseKit

/// What can go wrong when greeting someone.
enum GreetingError: Error, CustomStringConvertible {
    case emptyName

    var description: String {
        switch self {
        case .emptyName: "a name is required"
        }
    }
}

/// An interactor: returns a response at once, finishes it later on a worker queue.
struct GreetUser {
    let worker = DispatchQueue(label: "demo.greet-user")

    func execute(name: String) -> Response<String> {
        let (response, resolver) = Response<String>.pending()
        worker.async {
            guard !name.isEmpty else {
                resolver.fail(GreetingError.emptyName)
                return
            }
            resolver.succeed("Hello, \(name)!")
        }
        return response
    }
}
