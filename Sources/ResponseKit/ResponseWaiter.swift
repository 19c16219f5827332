/// Someone blocked waiting for a response who may give up: a blocking wait (``BlockingWaiter``). (A
/// task awaiting ``Response/get()`` waits as a continuation among the callbacks instead, with no
/// object of its own: `ResponseCallback.awaitingTask`.)
///
/// Registered among the response's callbacks, woken inline on completion, and, unlike the other
/// callbacks, removed again by identity when the wait gives up (a timeout, the task's
/// cancellation): so a response that outlives many waits that gave up holds none of them.
@usableFromInline
protocol ResponseWaiter: AnyObject, Sendable {
    /// The response is done: called once, inline on the completing thread. Keep it short.
    func wake()
}
