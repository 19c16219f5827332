import Dispatch

/// W7's interactor written by hand around ``IntPromise``: it returns a promise at once and
/// resolves it on a global queue, as ResponseKit's `DoublingInteractor` returns a response.
///
/// Not W7's floor, which returns nothing and answers through a callback (`global().async` +
/// `main.async`): this is the least a *future-returning* interactor costs, so that W7's
/// alternatives show how much of ResponseKit's ratio is the price of returning a future at all,
/// and how much is ResponseKit's own.
@available(macOS 15, iOS 18, tvOS 18, watchOS 11, *)
struct IntPromiseInteractor {
    /// Starts the work and returns its promise, made behind ``IntPromise/pending()``'s
    /// `@inline(never)` factory like every floor's.
    func execute(_ request: Int) -> IntPromise {
        let promise = IntPromise.pending()
        DispatchQueue.global().async { promise.resolve(DoublingInteractor.work(request)) }
        return promise
    }
}
