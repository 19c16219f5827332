/// A part of a run during which the load moves to a target: the rate of an open loop, or the
/// requests in flight of a closed loop, as k6's `stages`.
///
/// A run in stages ramps up, holds, and ramps down, so that one run shows how latency grows with
/// the load (``LoadReport/intervals`` show the rate changing):
///
/// <!-- example: fragment -->
/// ```swift
/// let driver = LoadDriver(.openLoopStages([
///     .ramp(to: 1_000, over: .seconds(30)),   // from 0 to 1,000 requests/s
///     .step(to: 1_000, for: .seconds(60)),    // hold
///     .ramp(to: 0, over: .seconds(10)),
/// ]))
/// ```
///
/// The load starts at 0. A ``Shape/ramp`` stage moves linearly from the target before it to its
/// own; a ``Shape/step`` stage jumps to its target at its start and holds it.
@available(macOS 13, iOS 16, tvOS 16, watchOS 9, *)
public struct LoadStage: Sendable, Hashable {
    /// How the load moves to the target.
    public enum Shape: String, Sendable, Hashable, Codable {
        /// Linearly, from the previous stage's target (0 for the first) to this one's, over the
        /// stage's duration.
        case ramp
        /// At once, at the start of the stage, then holds.
        case step
    }

    /// How long the stage lasts.
    public let duration: Duration
    /// Requests a second (open loop) or requests in flight (closed loop) at the end of the stage.
    public let target: Double
    /// How the load moves to the target.
    public let shape: Shape

    /// A stage that moves the load to `target` over `duration`.
    ///
    /// - Parameters:
    ///   - duration: how long the stage lasts.
    ///   - target: requests a second (open loop) or in flight (closed loop) at its end.
    ///   - shape: ``Shape/ramp`` (linearly, by default) or ``Shape/step`` (at once).
    public init(duration: Duration, target: Double, shape: Shape = .ramp) {
        self.duration = duration
        self.target = target
        self.shape = shape
    }

    /// A stage that moves the load linearly to `target` over `duration`.
    ///
    /// - Parameters:
    ///   - target: requests a second (open loop) or in flight (closed loop) at the stage's end.
    ///   - duration: how long the stage lasts.
    /// - Returns: the stage.
    public static func ramp(to target: Double, over duration: Duration) -> LoadStage {
        LoadStage(duration: duration, target: target, shape: .ramp)
    }

    /// A stage that sets the load to `target` at once and holds it for `duration`.
    ///
    /// - Parameters:
    ///   - target: requests a second (open loop) or in flight (closed loop).
    ///   - duration: how long the stage lasts.
    /// - Returns: the stage.
    public static func step(to target: Double, for duration: Duration) -> LoadStage {
        LoadStage(duration: duration, target: target, shape: .step)
    }
}

/// `{"durationNanoseconds":30000000000,"shape":"ramp","target":200}`.
@available(macOS 13, iOS 16, tvOS 16, watchOS 9, *)
extension LoadStage: Codable {
    private enum CodingKeys: String, CodingKey {
        case durationNanoseconds, target, shape
    }

    /// Reads a stage written by ``encode(to:)``.
    ///
    /// - Parameter decoder: the decoder.
    /// - Throws: `DecodingError` when a field is missing or of the wrong type.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        duration = .nanoseconds(try container.decode(Int64.self, forKey: .durationNanoseconds))
        target = try container.decode(Double.self, forKey: .target)
        shape = try container.decode(Shape.self, forKey: .shape)
    }

    /// Writes the stage's duration in whole nanoseconds, its target and its shape.
    ///
    /// - Parameter encoder: the encoder.
    /// - Throws: what the encoder throws.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(Int64(clamping: duration.loadNanoseconds), forKey: .durationNanoseconds)
        try container.encode(target, forKey: .target)
        try container.encode(shape, forKey: .shape)
    }
}
