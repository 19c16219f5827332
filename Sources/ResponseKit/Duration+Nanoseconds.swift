@available(macOS 13, iOS 16, tvOS 16, watchOS 9, *)
extension Duration {
    /// The duration in whole nanoseconds: zero when negative, `UInt64.max` when too long to count
    /// (about 584 years), so that "too long" means "never" rather than wrapping around to "now".
    package var saturatingNanoseconds: UInt64 {
        let (seconds, attoseconds) = max(self, .zero).components
        let (scaled, overflow) = UInt64(clamping: seconds).multipliedReportingOverflow(by: 1_000_000_000)
        let (nanoseconds, carry) = scaled.addingReportingOverflow(UInt64(attoseconds / 1_000_000_000))
        return overflow || carry ? .max : nanoseconds
    }
}
