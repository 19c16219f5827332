import Dispatch

/// One response that is still pending, as ``ResponseTracking/pendingResponses()`` lists it: where
/// it was made, how long ago, where its callbacks will run and how many wait for it.
///
/// A snapshot: the response may finish right after it was taken.
public struct PendingResponse: Sendable, CustomStringConvertible {
    /// The response's type, as in `Response<Int>`.
    public let typeName: String
    /// The file that created the response, as `#fileID` gave it.
    public let file: String
    /// The line that created the response.
    public let line: UInt
    /// Where the response's callbacks run.
    public let executor: ResponseExecutor
    /// How many callbacks, derived responses, blocking waits and awaiting tasks wait for it.
    public let observerCount: Int
    /// How long ago the response was made, when the snapshot was taken.
    public let age: DispatchTimeInterval

    /// `Response<Int> created at App/Login.swift:12, pending for 3.20 s, 1 observer, executor main`.
    public var description: String {
        let observers = observerCount == 1 ? "1 observer" : "\(observerCount) observers"
        return "\(typeName) created at \(file):\(line), pending for \(Self.seconds(age)), \(observers), "
            + "executor \(executor)"
    }

    /// `3.20 s`: an age or a threshold, for people.
    static func seconds(_ interval: DispatchTimeInterval) -> String {
        let nanoseconds = Double(ResponseTracking.nanoseconds(interval))
        let hundredths = (nanoseconds / 1e7).rounded()
        let whole = Int(hundredths) / 100
        let fraction = Int(hundredths) % 100
        return "\(whole).\(fraction < 10 ? "0" : "")\(fraction) s"
    }
}
