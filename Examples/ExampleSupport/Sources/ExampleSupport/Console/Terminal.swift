#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Questions about the terminal an example runs in, so that it can behave when piped.
public nonisolated enum Terminal {
    /// Whether standard input is a terminal: a person types the commands. When it is not
    /// (a pipe, a file, `/dev/null`), examples print no prompt and echo each command instead.
    public static var isStandardInputInteractive: Bool {
        isatty(0) == 1
    }

    /// Whether standard output is a terminal, which can redraw a spinner in place with `\r`.
    public static var isStandardOutputInteractive: Bool {
        isatty(1) == 1
    }
}
