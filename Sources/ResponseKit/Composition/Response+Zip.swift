extension Response {
    /// Succeeds with a tuple of the values once every response has succeeded; fails with the
    /// first failure, then cancels the others (unless something else still waits on them).
    ///
    /// `on:` is the executor that delivers the response's callbacks (``ResponseExecutor/main`` by
    /// default), not where its inputs run.
    ///
    /// <!-- example: fragment -->
    /// ```swift
    /// struct User: Sendable { let name: String }
    /// struct Order: Sendable { let id: Int }
    /// struct Settings: Sendable { let isDark: Bool }
    /// func fetchUser() -> Response<User> { Response(on: .global()) { User(name: "Ada") } }
    /// func fetchOrders() -> Response<[Order]> { Response(on: .global()) { [Order(id: 1)] } }
    /// func fetchSettings() -> Response<Settings> { Response(on: .global()) { Settings(isDark: true) } }
    ///
    /// let screen: Response<(User, [Order], Settings)> = Response.zip(fetchUser(), fetchOrders(), fetchSettings())
    /// screen.onCompletion { user, orders, settings in print(user.name, orders.count, settings.isDark) }
    /// ```
    ///
    /// - Parameters:
    ///   - responses: the responses to wait for, of any value types.
    ///   - executor: where the combined response delivers; ``ResponseExecutor/main`` by default.
    ///   - file: the creation site, for diagnostics. Leave the default.
    ///   - line: the creation site, for diagnostics. Leave the default.
    /// - Returns: a response with the tuple of values.
    public static func zip<each Element: Sendable>(
        _ responses: repeat Response<each Element>,
        on executor: ResponseExecutor = .main,
        file: StaticString = #fileID,
        line: UInt = #line
    ) -> Response<Value> where Value == (repeat each Element) {
        var erased: [Response<any Sendable>] = []
        for response in repeat each responses {
            erased.append(response.erased())
        }
        return Response<[any Sendable]>.all(erased, on: executor, file: file, line: line)
            .map(on: .immediate, file: file, line: line) { values in
                var remaining = values.makeIterator()
                // `all` keeps order, so element i has the i-th type of the pack: the cast holds.
                func next<T>(_: T.Type) -> T { remaining.next() as! T }
                return (repeat next((each Element).self))
            }
    }

    /// Combines this response with others into a tuple of values, as
    /// ``zip(_:on:file:line:)`` does, delivering on this response's executor.
    ///
    /// <!-- example: fragment -->
    /// ```swift
    /// struct User: Sendable { let name: String }
    /// struct Settings: Sendable { let isDark: Bool }
    /// func fetchUser() -> Response<User> { Response(on: .global()) { User(name: "Ada") } }
    /// func fetchSettings() -> Response<Settings> { Response(on: .global()) { Settings(isDark: true) } }
    ///
    /// let pair: Response<(User, Settings)> = fetchUser().zip(fetchSettings())
    /// ```
    ///
    /// - Parameters:
    ///   - others: the other responses.
    ///   - file: the creation site, for diagnostics. Leave the default.
    ///   - line: the creation site, for diagnostics. Leave the default.
    /// - Returns: a response with this value followed by the others'.
    public func zip<each Other: Sendable>(
        _ others: repeat Response<each Other>,
        file: StaticString = #fileID,
        line: UInt = #line
    ) -> Response<(Value, repeat each Other)> {
        Response<(Value, repeat each Other)>.zip(self, repeat each others, on: executor, file: file, line: line)
    }

    /// The same response with its value type erased, for heterogeneous combinators.
    func erased() -> Response<any Sendable> {
        map(on: .immediate) { $0 as any Sendable }
    }
}
