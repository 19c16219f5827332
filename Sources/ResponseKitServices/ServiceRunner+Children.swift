@available(macOS 13, iOS 16, tvOS 16, watchOS 9, *)
extension ServiceRunner {
    /// Ends the ``ChildProcess``es still running once the services have stopped, whoever owns them
    /// (those of services the manager has ended already), says so in the log, and calls `body` once
    /// they have exited; at once when there are none (and in tests, whose runners end no child).
    func endChildProcesses(then body: @escaping @MainActor () -> Void) {
        guard let children else {
            body()
            return
        }
        let leftovers = children.children()
        if !leftovers.isEmpty {
            let list = leftovers.map { "\($0.processIdentifier) (\($0.executable))" }.joined(separator: ", ")
            log("ending the child processes left running: \(list)")
        }
        children.end(leftovers, then: body)
    }
}
