extension Response {
    /// Makes a response for each element with `makeResponse`, with at most `maxInFlight` of them
    /// pending at any time, and succeeds with their values in the order of `elements`
    /// (PromiseKit's `when(fulfilled:concurrently:)`).
    ///
    /// `on:` is the executor that delivers the response's callbacks (``ResponseExecutor/main`` by
    /// default), not where `makeResponse` runs.
    ///
    /// The first `maxInFlight` responses are made at once, on the calling thread; each later one
    /// as soon as an earlier one succeeds, on the thread that finished it (inline; hop inside
    /// `makeResponse` if it is heavy). The first failure (an error `makeResponse` throws
    /// included) fails the result, cancels the responses in flight (unless something else still
    /// waits on them) and starts no more. Cancelling the result does the same. An empty sequence
    /// succeeds at once with an empty array.
    ///
    /// ```swift
    /// import Foundation
    /// import ResponseKit
    ///
    /// nonisolated func download(_ url: URL) -> Response<Data> { Response(on: .global()) { try Data(contentsOf: url) } }
    /// let photoURLs = (1...100).map { URL(fileURLWithPath: "/photos/\($0).jpg") }
    ///
    /// // At most four downloads at a time, however many photos there are.
    /// let photos: Response<[Data]> = Response.all(photoURLs, maxInFlight: 4) { url in download(url) }
    /// ```
    ///
    /// Its progress (``Response/onProgress(_:)``) is the fraction of elements whose response
    /// succeeded. Only the responses in flight are held: a finished one is let go at once, so a
    /// long sequence costs its values, not its responses.
    ///
    /// - Precondition: `maxInFlight` is at least 1 (with 0 nothing would ever start); a smaller
    ///   value stops the program with a message saying so.
    ///
    /// - Parameters:
    ///   - elements: what to make a response for, each once, in order.
    ///   - maxInFlight: how many responses may be pending at once; at least 1.
    ///   - executor: where the result delivers; ``ResponseExecutor/main`` by default.
    ///   - file: the creation site, for diagnostics. Leave the default.
    ///   - line: the creation site, for diagnostics. Leave the default.
    ///   - makeResponse: starts the work for one element. An error it throws fails the result.
    /// - Returns: a response with every value, in the order of `elements`.
    /// - Complexity: O(*n*) for *n* elements, holding at most `maxInFlight` responses at a time.
    public static func all<Element: Sendable, Output: Sendable>(
        _ elements: some Sequence<Element>,
        maxInFlight: Int,
        on executor: ResponseExecutor = .main,
        file: StaticString = #fileID,
        line: UInt = #line,
        _ makeResponse: @escaping @Sendable (Element) throws -> Response<Output>
    ) -> Response<Value> where Value == [Output] {
        precondition(
            maxInFlight >= 1,
            "Response.all(_:maxInFlight:): maxInFlight is \(maxInFlight), but it must be at least 1, or nothing would "
                + "ever start"
        )
        let combined = Response(pendingOn: executor, file: file, line: line)
        let elements = Array(elements)
        guard !elements.isEmpty else {
            combined.finish(with: .success([]), how: .racing)
            return combined
        }
        let fanOut = BoundedFanOut(elements, maxInFlight: maxInFlight, into: combined, makeResponse)
        combined.addCancellationHandler { fanOut.stop() }
        fanOut.start()
        return combined
    }
}
