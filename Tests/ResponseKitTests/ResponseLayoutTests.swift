import Dispatch
import ResponseKitTesting
import Testing

@testable import ResponseKit

/// A response reaches its state word by a fixed offset (`ResponseLayout`), from code that does not
/// know its value type: a resolver's handle, an upstream releasing a claim, the deinit. These
/// tests pin that offset to where Swift really put the field, for value types of every shape, and
/// on 64-bit Linux (the platform M1 measures) the size that makes a pending response with one
/// callback fit in 96 bytes. Debug builds check the same addresses in every response's initialiser
/// (`isLaidOutAsAssumed`), so the whole debug suite checks them on whatever platform runs it.
struct ResponseLayoutTests {
    init() { startRecordingDiagnostics() }  // the pending responses here are abandoned on purpose

    final class Object: Sendable {}

    struct Large: Sendable {
        var a = 1
        var b = 2
        var c = 3
        var name = "large"
    }

    /// Writes a pattern through `stateWord` itself and reads it back through the fixed offset.
    func expectWordAtItsOffset<Value: Sendable>(
        _ response: Response<Value>, sourceLocation: SourceLocation = #_sourceLocation
    ) {
        let viaOffset = UnsafeMutableRawPointer(ResponseLayout.word(of: response))
        let viaProperty = withUnsafeMutablePointer(to: &response.stateWord) { UnsafeMutableRawPointer($0) }
        #expect(viaOffset == viaProperty, sourceLocation: sourceLocation)
    }

    @Test func theStateWord_isWhereTheFixedOffsetSays_forEveryKindOfValue() {
        #expect(Response<Int>.pending().response.isLaidOutAsAssumed())
        #expect(Response<Large>.succeeded(Large()).isLaidOutAsAssumed())
        expectWordAtItsOffset(Response<Int>.pending().response)
        expectWordAtItsOffset(Response<Void>.pending().response)
        expectWordAtItsOffset(Response<String>.succeeded("x"))
        expectWordAtItsOffset(Response<Large>.succeeded(Large()))
        expectWordAtItsOffset(Response<Object>.pending(on: .queue(.global())).response)
        expectWordAtItsOffset(Response<(Int, Int, Int)>.failed(CancellationError()))
        expectWordAtItsOffset(Response<Int>.succeeded(1).map { "\($0)" })
    }

    struct Failure: Error, Equatable {
        let code: Int
    }

    /// A delivered result is read from the final state through a typed pointer, without `machine`
    /// (and, in debug builds, checked against the machine under the lock).
    @Test func aDeliveredResult_readFromTheFinalState_isTheResult() throws {
        #expect(try Response<Int>.succeeded(7).deliveredResult?.get() == 7)
        #expect(try Response<String>.succeeded("seven").deliveredResult?.get() == "seven")
        #expect(try Response<Large>.succeeded(Large()).deliveredResult?.get().name == "large")
        let object = Object()
        #expect(try Response<Object>.succeeded(object).deliveredResult?.get() === object)
        let triple = try #require(try Response<(Int, Int, Int)>.succeeded((1, 2, 3)).deliveredResult?.get())
        #expect(triple == (1, 2, 3))
        let failed = Response<Int>.failed(Failure(code: 3))
        failed.markFailureObserved()
        guard case .failure(let error)? = failed.deliveredResult else {
            Issue.record("no failure delivered")
            return
        }
        #expect(error as? Failure == Failure(code: 3))
        let (pending, resolver) = Response<Int>.pending(on: .immediate)
        #expect(pending.deliveredResult == nil)
        resolver.succeed(9)
        #expect(try pending.deliveredResult?.get() == 9)
    }

    @Test func theMachine_isTheSameSize_whateverTheValue() {
        let size = MemoryLayout<ResponseStateMachine<Int>>.size
        // The link, then the state: what `ResponseLayout.wordOffset` builds on, on every platform.
        #expect(size == MemoryLayout<AnyObject?>.stride + MemoryLayout<ResponseStateMachine<Int>.State>.size)
        #if _pointerBitWidth(_64)
        // Measured on 64-bit platforms: a link word, two words of payload and the tag byte, so that
        // the executor's kind, the creation line and a 4-byte word fill the last 8 bytes.
        #expect(size == 25)
        #endif
        #expect(MemoryLayout<ResponseStateMachine<Void>>.size == size)
        #expect(MemoryLayout<ResponseStateMachine<String>>.size == size)
        #expect(MemoryLayout<ResponseStateMachine<Large>>.size == size)
        #expect(MemoryLayout<ResponseStateMachine<Object>>.size == size)
        #expect(MemoryLayout<ResponseStateMachine<(Int, Int, Int)>>.size == size)
    }

    #if os(Linux) && _pointerBitWidth(_64)
    /// glibc's `malloc_usable_size` (declared in `malloc.h`, which no module of the toolchain
    /// exports): the bytes a chunk offers, which is what the memory benchmark pays for.
    @_silgen_name("malloc_usable_size")
    static func mallocUsableSize(_ pointer: UnsafeMutableRawPointer) -> Int

    @Test func aResponse_fitsA64ByteMallocChunk_on64BitLinux() {
        #expect(ResponseLayout.wordOffset == 28)
        let response = Response<Int>.pending().response
        let bytes = Self.mallocUsableSize(Unmanaged.passUnretained(response).toOpaque())
        #expect(bytes == 56)
    }
    #endif

    @Test func theCreationLine_survivesItsPacking_besideTheExecutor() {
        for line: UInt in [0, 1, 65_535, 65_536, 1_234_567, ResponseLayout.maximumLine] {
            for executor in [ResponseExecutor.main, .immediate, .queue(.global())] {
                let response = Response<Int>.pending(on: executor, line: line).response
                #expect(response.line == line)
                #expect(response.executor.description == executor.description)
            }
        }
        #expect(Response<Int>.pending(line: ResponseLayout.maximumLine + 1).response.line == 0)
    }
}
