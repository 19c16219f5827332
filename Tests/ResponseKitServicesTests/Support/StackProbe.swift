import ResponseKit
import ResponseKitServices

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// How deep the stack is at each call of the services that share it, in frames: how much deeper it
/// went from one service's start (or stop) to the next, without running until it overflows.
///
/// Counts frames with the C library's `backtrace`, not by the address of a local, which the address
/// sanitizer moves to a heap-allocated fake stack.
@MainActor
final class StackProbe {
    private typealias Backtrace = @convention(c) (UnsafeMutablePointer<UnsafeMutableRawPointer?>?, Int32) -> Int32

    /// `backtrace` from `execinfo.h`, which Swift's Glibc module does not import; looked up in
    /// every loaded image (`RTLD_DEFAULT`: `NULL` on Linux, `-2` on Apple platforms).
    private static let backtrace: Backtrace = {
        #if canImport(Darwin)
        let everyImage = UnsafeMutableRawPointer(bitPattern: -2)
        #else
        let everyImage: UnsafeMutableRawPointer? = nil
        #endif
        guard let symbol = dlsym(everyImage, "backtrace") else {
            fatalError("StackProbe: the C library has no backtrace()")
        }
        return unsafeBitCast(symbol, to: Backtrace.self)
    }()

    private var depths: [Int32] = []

    /// Notes how many frames the stack holds now.
    func record() {
        var frames = [UnsafeMutableRawPointer?](repeating: nil, count: 1 << 14)
        depths.append(Self.backtrace(&frames, Int32(frames.count)))
    }

    /// Forgets what was recorded so far.
    func forget() {
        depths.removeAll()
    }

    /// How many frames apart the deepest and shallowest recorded calls were.
    var spread: Int32 {
        guard let lowest = depths.min(), let highest = depths.max() else { return 0 }
        return highest - lowest
    }
}

/// A service that starts and stops at once, noting its calls in a journal and the stack's depth
/// at each in a probe: cheap enough to register by the thousand.
@MainActor
final class ProbedService: Service {
    let name: String
    private let journal: Journal
    private let probe: StackProbe

    init(_ name: String, journal: Journal, probe: StackProbe) {
        self.name = name
        self.journal = journal
        self.probe = probe
    }

    func start() -> Response<Void> {
        probe.record()
        journal.record("start \(name)")
        return .succeeded((), on: .immediate)
    }

    func stop() -> Response<Void> {
        probe.record()
        journal.record("stop \(name)")
        return .succeeded((), on: .immediate)
    }
}
