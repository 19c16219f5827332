import ResponseKit

/// One problem the response checks found in a test: a diagnostic about a response the test made,
/// a response still pending at its end, or work left in a test double it made.
public struct ResponseCheckProblem: Sendable, CustomStringConvertible {
    /// What kind of problem: a ResponseKit diagnostic's kind, or `.pendingAtEnd` or
    /// `.leftoverWork`.
    public let kind: ResponseDiagnostic.Kind
    /// What happened, in one sentence.
    public let message: String
    /// Where the response (or the test double) concerned was made, as `#fileID` gave it.
    public let file: String
    /// The line where it was made.
    public let line: UInt

    /// `ResponseKit <kind>: <message>`, as ResponseKit's diagnostics read.
    public var description: String { "ResponseKit \(kind): \(message)" }

    /// The problems in `findings`, oldest first, but for the kinds in `allowed`.
    package static func problems(
        in findings: ResponseCheckScope.Findings, allowing allowed: Set<ResponseDiagnostic.Kind>
    )
        -> [ResponseCheckProblem]
    {
        var problems = findings.diagnostics.map(ResponseCheckProblem.init)
        problems += findings.pending.map {
            ResponseCheckProblem(
                kind: .pendingAtEnd,
                message: "\($0); still pending when the test ended (resolve it, cancel it, or let it go)",
                file: $0.file,
                line: $0.line
            )
        }
        problems += findings.leftovers.map {
            ResponseCheckProblem(kind: .leftoverWork, message: $0.message, file: $0.file, line: $0.line)
        }
        return problems.filter { !allowed.contains($0.kind) }
    }
}

extension ResponseCheckProblem {
    /// The problem `diagnostic` reports.
    init(_ diagnostic: ResponseDiagnostic) {
        self.init(kind: diagnostic.kind, message: diagnostic.message, file: diagnostic.file, line: diagnostic.line)
    }
}
