import ExampleSupport

/// The demo cannot keep its files in its data directory, so it does not start: nothing is read,
/// run or saved, and nothing claims that data was kept.
///
/// `main.swift` prints it on standard error and exits with ``exitStatus``:
///
/// ```
/// ResponseKitDemo: cannot keep data in /data/demo (mkdir /data: Permission denied); nothing was
/// started or saved. Give a directory you can write with --data-dir DIR.
/// ```
public nonisolated struct UnusableDataDirectory: Error, CustomStringConvertible {
    /// 73, `EX_CANTCREAT` of `sysexits(3)`: an output file cannot be created.
    public static let exitStatus: Int32 = 73

    /// The directory the demo was given.
    public let directory: String
    /// What the system said.
    public let reason: FileError

    /// Makes an error.
    ///
    /// - Parameters:
    ///   - directory: the directory the demo was given.
    ///   - reason: what the system said.
    public init(directory: String, reason: FileError) {
        self.directory = directory
        self.reason = reason
    }

    /// The directory, the system's reason, and what to do.
    public var description: String {
        "cannot keep data in \(directory) (\(reason)); nothing was started or saved. "
            + "Give a directory you can write with --data-dir DIR."
    }
}
