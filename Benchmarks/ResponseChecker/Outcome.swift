import ResponseKit

/// The error a program's `fail` and `flatMap` steps use, told apart by code.
struct CheckerError: Error, Equatable {
    let code: Int
}

/// What a consumer saw of a response, in a form the model can compare.
enum Outcome: Hashable, Sendable, CustomStringConvertible {
    case value(Int)
    case failed(code: Int)
    /// `CancellationError`.
    case cancelled
    /// `ResponseError.abandoned`: the last resolver went away.
    case abandoned
    /// Any other error: never expected, so always a broken rule.
    case other(String)

    init(_ result: Result<Int, any Error>) {
        switch result {
        case .success(let value): self = .value(value)
        case .failure(let error): self.init(error: error)
        }
    }

    init(error: any Error) {
        if let error = error as? CheckerError {
            self = .failed(code: error.code)
        } else if error is CancellationError {
            self = .cancelled
        } else if let error = error as? ResponseError, error == .abandoned {
            self = .abandoned
        } else {
            self = .other(String(describing: error))
        }
    }

    var isFailure: Bool {
        if case .value = self { return false }
        return true
    }

    var description: String {
        switch self {
        case .value(let value): "value(\(value))"
        case .failed(let code): "failed(code: \(code))"
        case .cancelled: "CancellationError"
        case .abandoned: "abandoned"
        case .other(let text): "unexpected error \(text)"
        }
    }
}
