/// The floor's `map`, for W3: a new promise resolved by a callback on this one.
@available(macOS 15, iOS 18, tvOS 18, watchOS 11, *)
extension IntPromise {
    func map(_ transform: @escaping @Sendable (Int) -> Int) -> IntPromise {
        let next = IntPromise.pending()
        observe { next.resolve(transform($0)) }
        return next
    }
}
