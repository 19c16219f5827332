import Dispatch

extension DispatchTime {
    /// A deadline at `uptimeNanoseconds`, where anything too far to express means "never".
    ///
    /// Why not `DispatchTime(uptimeNanoseconds:)` alone: it keeps a time at or past 2⁶³
    /// nanoseconds (about 292 years of uptime) as it is, and Dispatch reads such a value as a
    /// wall-clock time, one long gone: a timer set that far fires at once (measured on Linux).
    static func saturating(uptimeNanoseconds: UInt64) -> DispatchTime {
        uptimeNanoseconds >= UInt64(Int64.max) ? .distantFuture : DispatchTime(uptimeNanoseconds: uptimeNanoseconds)
    }
}
