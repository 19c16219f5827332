// What a response reports through `ResponseDiagnostics` about itself: abandoned, resolved twice, a
// failure nobody observed.

extension Response {
    // MARK: - Abandonment

    /// Fails the response with ``ResponseError/abandoned`` if it is still pending: its last
    /// resolver was just released.
    ///
    /// Reported *before* the response fails: whoever hears of the failure (a test blocked on the
    /// response, which then ends) finds the report already made, never after. With the last
    /// resolver gone only ``Response/cancel()`` can still finish the response; when it wins that
    /// race, the work has still dropped its resolver without resolving, which is what the report
    /// says.
    @usableFromInline
    func abandonIfPending() {
        guard flags & ResponseFlags.done == 0 else { return }
        ResponseDiagnostics.report(
            .abandoned,
            "\(Self.self) created at \(file):\(line) was abandoned: its last resolver was released before "
                + "it was resolved, so it failed with ResponseError.abandoned",
            file: file,
            line: line,
            about: self
        )
        finish(with: .failure(ResponseError.abandoned), how: .abandoning)
    }

    // MARK: - Diagnostics

    /// Reports a result that arrived after the response was done, unless the first was a cancellation.
    @usableFromInline
    func reportDuplicate(first: Result<Value, any Error>, file: StaticString, line: UInt) {
        if case .failure(let error) = first, error is CancellationError { return }
        if flags & ResponseFlags.abandoned != 0 { return }
        ResponseDiagnostics.report(
            .resolvedTwice,
            "\(Self.self) created at \(self.file):\(self.line) was resolved again at \(file):\(line); "
                + "the first result (\(Self.summary(of: first))) stands",
            file: self.file,
            line: self.line,
            about: self
        )
    }

    @usableFromInline
    func reportUnobserved(_ error: any Error) {
        guard !(error is CancellationError) else { return }
        // An abandonment was reported where it happened; the responses derived from it carry it on.
        guard (error as? ResponseError) != .abandoned else { return }
        ResponseDiagnostics.report(
            .unobservedFailure,
            "\(Self.self) created at \(file):\(line) failed with \(error) and was released "
                + "without anyone observing the failure (no onFailure, always, blocking read or await)",
            file: file,
            line: line,
            about: self
        )
    }
}
