#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Questions about the terminal an example runs in, so that it can behave when piped.
public enum Terminal {
    /// Whether standard input is a terminal: a person types the commands. When it is not
    /// (a pipe, a file, `/dev/null`), examples print no prompt and echo each command instead.
    public static var isStandardInputInteractive: Bool {
        isatty(0) == 1
    }

    /// Whether standard output is a terminal, which can redraw a spinner in place with `\r`.
    public static var isStandardOutputInteractive: Bool {
        isatty(1) == 1
    }

    /// Blocks SIGINT and SIGTERM on the calling thread.
    ///
    /// `ServiceRunner` receives these signals through Dispatch, which on Linux reads them from a
    /// `signalfd`: that works only while no thread leaves them unblocked, since the runner sets
    /// them to be ignored and a thread that accepts one would silently drop it. Threads started
    /// after the runner inherit its mask; a thread of our own that may predate it (the input
    /// reader) blocks them itself, so Ctrl-C always reaches the runner.
    public static func blockTerminationSignalsOnCurrentThread() {
        var signals = sigset_t()
        sigemptyset(&signals)
        sigaddset(&signals, SIGINT)
        sigaddset(&signals, SIGTERM)
        pthread_sigmask(SIG_BLOCK, &signals, nil)
    }
}
