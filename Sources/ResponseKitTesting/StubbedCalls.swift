import ResponseKit

/// A fake of a gateway in one line: every call gets a pending response, and the test reads what
/// was asked, then answers each call (succeeds, fails or cancels it) when it chooses, or leaves
/// it pending.
///
/// ```swift
/// import ResponseKit
/// import ResponseKitTesting
/// import Testing
///
/// struct Credentials: Equatable, Sendable { let user: String, password: String }
/// struct User: Equatable, Sendable { let name: String }
///
/// struct SignIn {
///     let authenticate: @Sendable (Credentials) -> Response<User>
///     func callAsFunction(_ user: String, _ password: String) -> Response<User> {
///         authenticate(Credentials(user: user, password: password))
///     }
/// }
///
/// @Test(.responseChecks) func signIn_answersWithTheUser() throws {
///     let gateway = StubbedCalls<Credentials, User>()
///     let signIn = SignIn(authenticate: gateway.call)
///     let response = signIn("ada", "secret")
///     #expect(gateway.calls.map(\.argument) == [Credentials(user: "ada", password: "secret")])
///     gateway.calls[0].succeed(User(name: "Ada"))
///     #expect(try response.value == User(name: "Ada"))
/// }
/// ```
///
/// The responses deliver on the stub's executor (`ResponseExecutor.main` by
/// default, as a real gateway's would). A call keeps its resolver until it is answered, so an
/// unanswered call stays pending rather than failing as abandoned; under the response checks
/// (``ResponseChecksTrait``) a call the test never answered is a problem of the test, reported
/// with its argument at the line that made the stub. Answering a call twice is reported as a
/// `resolvedTwice` diagnostic, as a resolver's second answer is.
///
/// Thread-safe: the code under test may call it from any thread.
public final class StubbedCalls<Argument: Sendable, Value: Sendable>: Sendable {
    /// One call: what was asked, the response handed out, and the way to answer it.
    public final class Call: Sendable {
        /// Where in the order of calls this one came, from 0.
        public let index: Int
        /// What the code under test asked for.
        public let argument: Argument
        /// The response the call returned.
        public let response: Response<Value>
        private let resolver: Resolver<Value>

        init(index: Int, argument: Argument, response: Response<Value>, resolver: Resolver<Value>) {
            self.index = index
            self.argument = argument
            self.response = response
            self.resolver = resolver
        }

        /// Answers the call with `value`.
        ///
        /// - Parameters:
        ///   - value: the answer.
        ///   - file: reported if the call was answered already. Leave the default.
        ///   - line: reported if the call was answered already. Leave the default.
        public func succeed(_ value: Value, file: StaticString = #fileID, line: UInt = #line) {
            resolver.succeed(value, file: file, line: line)
        }

        /// Answers the call with a failure.
        ///
        /// - Parameters:
        ///   - error: the failure.
        ///   - file: reported if the call was answered already. Leave the default.
        ///   - line: reported if the call was answered already. Leave the default.
        public func fail(_ error: any Error, file: StaticString = #fileID, line: UInt = #line) {
            resolver.fail(error, file: file, line: line)
        }

        /// Cancels the call's response, as its caller's `cancel()` would.
        public func cancel() {
            response.cancel()
        }

        /// Whether the call was answered (or cancelled).
        public var isAnswered: Bool { response.isDone }

        /// Fails the call as abandoned: its stub is gone, so it can never be answered.
        func abandon() {
            resolver.fail(ResponseError.abandoned)
        }
    }

    private let executor: ResponseExecutor
    private let file: StaticString
    private let line: UInt
    /// The test scope the stub was made in: its calls' responses belong to it even when the code
    /// under test calls from another thread, and it reports unanswered calls.
    private let checkScope: ResponseCheckScope?
    private let recorded = LockedBox.make([Call]())

    /// Makes a stub with no calls yet.
    ///
    /// - Parameters:
    ///   - executor: where the calls' responses deliver their callbacks; `.main` by default.
    ///   - file: where the stub is made: the calls' responses report it as their creation site.
    ///     Leave the default.
    ///   - line: where the stub is made. Leave the default.
    public init(on executor: ResponseExecutor = .main, file: StaticString = #fileID, line: UInt = #line) {
        self.executor = executor
        self.file = file
        self.line = line
        checkScope = ResponseCheckScope.current
        checkScope?.watch(self)
    }

    /// Records a call of the faked gateway and returns its pending response: pass `stub.call`
    /// where the code under test expects the gateway's function.
    ///
    /// - Parameter argument: what the code under test asks for.
    /// - Returns: a response pending until the test answers the call.
    public func call(_ argument: Argument) -> Response<Value> {
        let (response, resolver) = makePending()
        recorded.withLock { calls in
            calls.append(Call(index: calls.count, argument: argument, response: response, resolver: resolver))
        }
        return response
    }

    /// Every call so far, oldest first.
    public var calls: [Call] { recorded.withLock { $0 } }

    /// The calls not answered yet, oldest first.
    public var unansweredCalls: [Call] { calls.filter { !$0.isAnswered } }

    /// Under the checks, a call never answered is reported as such when the stub goes (at the
    /// end of the test, usually), with its argument, and its response fails as abandoned without
    /// a second report; outside them, dropping its resolver reports it as `abandoned`.
    deinit {
        guard let checkScope else { return }
        for call in unansweredCalls {
            checkScope.receive(
                ResponseDiagnostic(
                    kind: .leftoverWork,
                    message: unansweredMessage(for: call),
                    file: "\(file)",
                    line: line
                )
            )
            call.abandon()
        }
    }

    private func unansweredMessage(for call: Call) -> String {
        "StubbedCalls<\(Argument.self), \(Value.self)> made at \(file):\(line): call \(call.index) "
            + "(\(call.argument)) was never answered (succeed, fail or cancel it)"
    }

    private func makePending() -> (Response<Value>, Resolver<Value>) {
        guard let checkScope else { return Response<Value>.pending(on: executor, file: file, line: line) }
        let (response, resolver) = checkScope.run { Response<Value>.pending(on: executor, file: file, line: line) }
        checkScope.excludeFromPendingCheck(ObjectIdentifier(response))  // reported as an unanswered call
        return (response, resolver)
    }
}

extension StubbedCalls where Argument == Void {
    /// ``call(_:)`` for a gateway function that takes nothing.
    ///
    /// - Returns: a response pending until the test answers the call.
    public func call() -> Response<Value> {
        call(())
    }
}

extension StubbedCalls: ResponseCheckScope.Watched {
    /// The calls never answered, for the response checks.
    package func leftovers() -> [ResponseCheckScope.Leftover] {
        unansweredCalls.map { call in
            ResponseCheckScope.Leftover(message: unansweredMessage(for: call), file: "\(file)", line: line)
        }
    }
}
