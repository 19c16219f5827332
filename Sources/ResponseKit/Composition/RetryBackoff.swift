/// How long ``Response/retry(attempts:backoff:scheduler:on:shouldRetry:file:line:_:)`` waits before each new attempt.
///
/// <!-- example: fragment -->
/// ```swift
/// let backoffs: [RetryBackoff] = [
///     .none,                                          // retry at once
///     .fixed(.milliseconds(200)),                     // the same pause every time
///     .exponential(initial: .milliseconds(100)),      // 100 ms, 200 ms, 400 ms ... ±20 %, at most 60 s
/// ]
/// ```
@available(macOS 13, iOS 16, tvOS 16, watchOS 9, *)
public struct RetryBackoff: Sendable, CustomStringConvertible {
    private enum Policy: Sendable {
        case fixed(Duration)
        case exponential(initial: Duration, multiplier: Double, maximum: Duration, jitter: Double)
    }

    private let policy: Policy

    /// No pause between attempts.
    public static let none = RetryBackoff(policy: .fixed(.zero))

    /// The same pause before every new attempt.
    ///
    /// - Parameter delay: the pause; negative values count as zero.
    /// - Returns: the policy.
    public static func fixed(_ delay: Duration) -> RetryBackoff {
        RetryBackoff(policy: .fixed(max(delay, .zero)))
    }

    /// A pause that grows by `multiplier` after each failure, up to `maximum`, spread by `jitter`
    /// so that many clients failing together do not retry together.
    ///
    /// The pause before attempt *n* (n ≥ 2) is `initial × multiplier^(n−2)`, capped at `maximum`,
    /// then multiplied by a random factor in `1 − jitter ... 1 + jitter` (and capped again).
    ///
    /// - Parameters:
    ///   - initial: the pause before the second attempt; negative values count as zero.
    ///   - multiplier: the growth per attempt; values below 1 count as 1.
    ///   - maximum: the longest pause.
    ///   - jitter: the spread, from 0 (none) to 1; clamped to that range.
    /// - Returns: the policy.
    public static func exponential(
        initial: Duration,
        multiplier: Double = 2,
        maximum: Duration = .seconds(60),
        jitter: Double = 0.2
    ) -> RetryBackoff {
        RetryBackoff(
            policy: .exponential(
                initial: max(initial, .zero),
                multiplier: multiplier.isFinite ? max(multiplier, 1) : 1,
                maximum: max(maximum, .zero),
                jitter: jitter.isFinite ? min(max(jitter, 0), 1) : 0
            )
        )
    }

    /// The pause before `attempt` (2 for the first retry), drawing jitter from `generator`.
    ///
    /// - Parameters:
    ///   - attempt: the attempt about to start, counting from 1.
    ///   - generator: the source of randomness for jitter.
    /// - Returns: how long to wait.
    public func delay(
        beforeAttempt attempt: Int,
        using generator: inout some RandomNumberGenerator
    ) -> Duration {
        switch policy {
        case .fixed(let delay):
            return attempt <= 1 ? .zero : delay
        case .exponential(let initial, let multiplier, let maximum, let jitter):
            guard attempt > 1, initial > .zero, maximum > .zero else { return .zero }
            let base = min(initial * Self.power(multiplier, attempt - 2, cap: maximum / initial), maximum)
            guard jitter > 0 else { return base }
            let factor = Double.random(in: (1 - jitter)...(1 + jitter), using: &generator)
            return min(base * factor, maximum)
        }
    }

    /// The pause before `attempt`, with system randomness for jitter.
    ///
    /// - Parameter attempt: the attempt about to start, counting from 1.
    /// - Returns: how long to wait.
    public func delay(beforeAttempt attempt: Int) -> Duration {
        var generator = SystemRandomNumberGenerator()
        return delay(beforeAttempt: attempt, using: &generator)
    }

    /// `multiplier^exponent`, stopping early once it passes `cap` so huge attempt numbers cannot overflow.
    private static func power(_ multiplier: Double, _ exponent: Int, cap: Double) -> Double {
        var result = 1.0
        for _ in 0..<max(exponent, 0) {
            result *= multiplier
            if !(result <= cap) { return cap.isFinite ? cap : 1 }
        }
        return result
    }

    /// The policy, as in `fixed(0.2 seconds)`.
    public var description: String {
        switch policy {
        case .fixed(let delay): "fixed(\(delay))"
        case .exponential(let initial, let multiplier, let maximum, let jitter):
            "exponential(initial: \(initial), multiplier: \(multiplier), maximum: \(maximum), jitter: \(jitter))"
        }
    }
}
