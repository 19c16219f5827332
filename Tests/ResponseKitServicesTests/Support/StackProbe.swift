import ResponseKit
import ResponseKitServices

/// Where the stack stands at each call of the services that share it: how much deeper it went
/// from one service's start (or stop) to the next, without running until it overflows.
@MainActor
final class StackProbe {
    private var addresses: [UInt] = []

    /// Notes the stack pointer of the caller, roughly: the address of a local of this call.
    @inline(never)
    func record() {
        var local = 0
        addresses.append(withUnsafeMutablePointer(to: &local) { UInt(bitPattern: $0) })
    }

    /// Forgets what was recorded so far.
    func forget() {
        addresses.removeAll()
    }

    /// How far apart, in bytes, the deepest and shallowest recorded calls were.
    var spread: UInt {
        guard let lowest = addresses.min(), let highest = addresses.max() else { return 0 }
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
