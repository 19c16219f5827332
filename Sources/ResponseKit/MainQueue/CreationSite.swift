/// Where a response was made, carried with its main-queue jobs so that a delivery that never ran
/// can be traced to its response (``MainQueueJobs``' report at exit) without keeping the response
/// alive or turning its file name into a `String` on the way.
///
/// Safety of `@unchecked Sendable`: `file` is `nil` or points to the text of a `StaticString`
/// made by `#fileID`, the only kind of file name a response records (`Response.creationFile`).
/// Such text is a constant of the program's image: never written, and alive for as long as the
/// code that can run. Reading it from any thread is therefore a read of immutable memory.
@usableFromInline
struct CreationSite: @unchecked Sendable {
    /// The NUL-terminated `#fileID` text, or `nil` when unknown.
    @usableFromInline let file: UnsafeRawPointer?
    /// The line, or 0 when unknown.
    @usableFromInline let line: UInt

    @inlinable
    init(file: UnsafeRawPointer?, line: UInt) {
        self.file = file
        self.line = line
    }

    /// No site: a job ResponseKit queued for no particular response (a plain executor job).
    @inlinable
    static var unknown: CreationSite { CreationSite(file: nil, line: 0) }

    /// The file name, as `#fileID` gave it; `?` when unknown.
    var fileName: String {
        guard let file else { return "?" }
        return String(cString: file.assumingMemoryBound(to: CChar.self))
    }
}

extension Response {
    /// Where this response was made, for the jobs it queues.
    @inlinable
    var creationSite: CreationSite {
        CreationSite(file: creationFile, line: line)
    }
}
