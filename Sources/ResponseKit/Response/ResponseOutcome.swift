/// A finished response's result as its state machine stores it: a failure, or a success whose
/// value sits in a ``ResponseValueSlot``.
///
/// Why not `Result<Value, any Error>`: a generic class's deinit runs unspecialised, and destroying
/// a stored property whose type depends on `Value` (`Result<Value, any Error>`, `Value?`) makes the
/// runtime search its generic-metadata cache on every response's release
/// (Benchmarks/README.md, "What the engine's shape saves"). Nothing in
/// this type depends on `Value`, so the machine holding it is destroyed without that search; the
/// response's deinit destroys the success value itself, from the metadata of `Value` that its own
/// class metadata carries (see `Response.deinit`).
@usableFromInline
enum ResponseOutcome {
    /// Succeeded; the slot owns the value.
    case success(ResponseValueSlot)
    /// Failed.
    case failure(any Error)

    /// Stores `result`, taking a copy of its value into a slot that the machine will own.
    @inlinable
    init<Value>(_ result: Result<Value, any Error>) {
        switch result {
        case .success(let value): self = .success(ResponseValueSlot(value))
        case .failure(let error): self = .failure(error)
        }
    }

    /// A copy of the result; the outcome keeps its own value.
    @inlinable @inline(__always)  // a call per step of a chain otherwise (the optimiser kept it out)
    func result<Value>(as type: Value.Type) -> Result<Value, any Error> {
        switch self {
        case .success(let slot): .success(slot.value(as: type))
        case .failure(let error): .failure(error)
        }
    }

    /// Destroys the success value, if any, for an outcome that no machine took: its owner's last
    /// use. (The compiler destroys a failure's error.)
    @inlinable
    func destroyValue<Value>(as type: Value.Type) {
        if case .success(let slot) = self { slot.destroy(as: type) }
    }
}
