import CResponseKitServices
import Dispatch

#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

@available(macOS 13, iOS 16, tvOS 16, watchOS 9, *)
extension ServiceRunner {
    /// Catches the signals with the C handler (CResponseKitServices), which writes each one's
    /// number to a pipe that the main queue reads.
    ///
    /// Neither blocked nor ignored, the signals leave what threads and child processes inherit
    /// as it was (a blocked mask and `SIG_IGN` both survive `exec`; a caught signal does not).
    /// The handler is installed before ``launch()``, so a process that says it is ready also
    /// hears its signals: one that arrives before the reader is registered with Dispatch waits
    /// in the pipe. (With Dispatch signal sources, registered asynchronously, a SIGTERM sent just
    /// after the fixture said `ready` was once lost in 4 test runs out of 25 on a loaded
    /// two-core machine, until the services started only once every source was registered.)
    ///
    /// Reload signals are caught without a forced-exit line: two SIGHUPs in a row while the main
    /// queue is busy are two reload requests, never a reason to end the process.
    func catchSignals() {
        guard !signals.isEmpty || !reloadSignals.isEmpty else { return }
        let readEnd = rks_signal_pipe_open()
        precondition(readEnd >= 0, "ServiceRunner.run(): no pipe for signals: \(String(cString: strerror(errno)))")
        let reader = DispatchSource.makeReadSource(fileDescriptor: readEnd, queue: .main)
        // Safe: the handler runs on the main queue, which `run()` drains on the main thread.
        reader.setEventHandler { [weak self] in
            MainActor.assumeIsolated { self?.handleSignals(from: readEnd) }
        }
        reader.resume()
        signalReader = reader
        for signalNumber in signals {
            let name = Self.name(of: signalNumber)
            let forcedExitLine =
                "ServiceRunner: received \(name) while the main queue was still busy with the previous signal; "
                + "exiting now with status \(128 + signalNumber)\n"
            guard rks_signal_catch(signalNumber, forcedExitLine) == 0 else {
                preconditionFailure("ServiceRunner.run(): cannot catch \(name): \(String(cString: strerror(errno)))")
            }
        }
        for signalNumber in reloadSignals where rks_signal_catch(signalNumber, nil) != 0 {
            let name = Self.name(of: signalNumber)
            preconditionFailure("ServiceRunner.run(): cannot catch \(name): \(String(cString: strerror(errno)))")
        }
    }

    /// Handles the signals waiting in the pipe, in order of arrival; tells the C handler after
    /// each shutdown signal, so that a signal arriving meanwhile forces the exit there if this one
    /// never returns. (The handler does not count reload signals.)
    private func handleSignals(from readEnd: Int32) {
        var numbers = [UInt8](repeating: 0, count: 16)
        while true {
            let count = numbers.withUnsafeMutableBytes { read(readEnd, $0.baseAddress, $0.count) }
            if count < 0, errno == EINTR { continue }
            guard count > 0 else { return }  // EAGAIN: the pipe is empty
            for number in numbers[..<count] {
                handleSignal(Int32(number))
                if !reloadSignals.contains(Int32(number)) { rks_signal_handled() }
            }
        }
    }

    /// `SIGINT`, `SIGTERM`, `SIGHUP`, `SIGQUIT`, or `signal N`.
    nonisolated static func name(of signal: Int32) -> String {
        switch signal {
        case SIGINT: "SIGINT"
        case SIGTERM: "SIGTERM"
        case SIGHUP: "SIGHUP"
        case SIGQUIT: "SIGQUIT"
        default: "signal \(signal)"
        }
    }
}
