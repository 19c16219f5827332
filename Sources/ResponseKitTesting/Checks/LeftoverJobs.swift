import ResponseKit

extension ResponseCheckScope.Leftover {
    /// The report of a test double made at `file`:`line` that still has `count` jobs when the test
    /// ends; none when it has none.
    ///
    /// - Parameters:
    ///   - count: the jobs left.
    ///   - double: the double, as the report names it (`ManualExecutor`).
    ///   - state: how the jobs wait (`queued`, `scheduled at 3 s`).
    ///   - advice: what the test should have done with them.
    static func jobs(
        _ count: Int,
        leftIn double: String,
        madeAt file: String,
        line: UInt,
        state: String,
        advice: String
    ) -> [Self] {
        guard count > 0 else { return [] }
        let jobs = count == 1 ? "1 job" : "\(count) jobs"
        return [
            Self(
                message: "\(double) made at \(file):\(line) still has \(jobs) \(state) when the test ended (\(advice))",
                file: file,
                line: line
            )
        ]
    }
}
