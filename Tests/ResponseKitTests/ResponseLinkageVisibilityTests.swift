import Dispatch
import Testing

@testable import ResponseKit

#if os(Linux)
/// LeakSanitizer (CI's address-sanitizer job) tells a live object from a leaked one by finding its
/// address, as a plain word, in memory reachable from the roots. A reference stored with tag bits
/// set in its spare bits is not such a word: whatever a live response reaches only that way is
/// reported leaked when the process exits with the response still alive (as the ServiceRunner
/// fixture does when a second signal forces its exit during a stuck stop). These tests look for
/// each object a pending response owns among the plain words of the response's heap block.
struct ResponseLinkageVisibilityTests {
    init() { startRecordingDiagnostics() }  // the pending responses here are abandoned on purpose

    /// Whether `object`'s address is one of the aligned words of `response`'s heap block.
    func holdsPlainly<Value>(_ response: Response<Value>, _ object: AnyObject) -> Bool {
        let block = Unmanaged.passUnretained(response).toOpaque()
        let wordCount = ResponseLayoutTests.mallocUsableSize(block) / MemoryLayout<UInt>.stride
        let address = UInt(bitPattern: Unmanaged.passUnretained(object).toOpaque())
        let words = UnsafeRawPointer(block).bindMemory(to: UInt.self, capacity: wordCount)
        return (0..<wordCount).contains { words[$0] == address }
    }

    func extras<Value>(of response: Response<Value>) throws -> ResponseExtras {
        try #require(response.read { machine in machine.extras })
    }

    @Test func aPendingResponseOnAQueue_holdsItsExtras_byAPlainAddress() {
        let (response, resolver) = Response<Int>.pending(on: .queue(DispatchQueue(label: "delivery")))
        // Extras made for the executor, if the response keeps it there.
        if let extras = response.read({ machine in machine.extras }) {
            #expect(holdsPlainly(response, extras))
        }
        withExtendedLifetime(resolver) {}
    }

    @Test func aPendingResponseWithACancellationHandler_holdsItsExtras_byAPlainAddress() throws {
        let (response, resolver) = Response<Int>.pending(on: .immediate)
        resolver.onCancel {}
        #expect(holdsPlainly(response, try extras(of: response)))
    }

    @Test func aPendingDerivedResponse_holdsItsUpstream_byAPlainAddress() {
        let (upstream, resolver) = Response<Int>.pending(on: .immediate)
        let derived = upstream.map { $0 + 1 }
        #expect(holdsPlainly(derived, upstream))
        withExtendedLifetime(resolver) {}
    }
}
#endif
