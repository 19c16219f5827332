import ResponseKit

/// The error a program's `fail` and `flatMap` steps use, told apart by code.
struct CheckerError: Error, Equatable {
    let code: Int
}

/// What a consumer saw of a response, in a form the model can compare.
indirect enum Outcome: Hashable, Sendable, CustomStringConvertible {
    case value(Int)
    case failed(code: Int)
    /// `CancellationError`.
    case cancelled
    /// `ResponseError.abandoned`: the last resolver went away.
    case abandoned
    /// `ResponseError.deadlineExceeded`: a `timeout` ran out.
    case deadlineExceeded
    /// `ResponseAggregateError`: every input of an `any` failed, these errors in input order.
    case aggregate([Outcome])
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
        } else if let error = error as? ResponseError, error == .deadlineExceeded {
            self = .deadlineExceeded
        } else if let error = error as? ResponseAggregateError {
            self = .aggregate(error.errors.map { Outcome(error: $0) })
        } else {
            self = .other(String(describing: error))
        }
    }

    var isFailure: Bool {
        if case .value = self { return false }
        return true
    }

    /// One `Int` per outcome, so that `allSettled`'s array of results folds to one value.
    var settledCode: Int {
        switch self {
        case .value(let value): value
        case .failed(let code): 1000 + code
        case .cancelled: 2000
        case .abandoned: 3000
        case .deadlineExceeded: 4000
        case .aggregate(let errors): 5000 + errors.count
        case .other: 9000
        }
    }

    /// `allSettled`'s outcomes folded in order, as the program folds the array it delivers.
    static func settled(_ outcomes: [Outcome]) -> Int {
        outcomes.reduce(0) { $0 &* 31 &+ $1.settledCode }
    }

    var description: String {
        switch self {
        case .value(let value): "value(\(value))"
        case .failed(let code): "failed(code: \(code))"
        case .cancelled: "CancellationError"
        case .abandoned: "abandoned"
        case .deadlineExceeded: "deadlineExceeded"
        case .aggregate(let errors): "aggregate(\(errors))"
        case .other(let text): "unexpected error \(text)"
        }
    }
}
