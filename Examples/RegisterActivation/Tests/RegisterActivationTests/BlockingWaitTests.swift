import RegisterActivationCore
import ResponseKit
import ResponseKitTesting
import Testing

/// The spinner's wait loop. Each slice is a real `wait(timeout:)` of a millisecond; the response
/// is finished by the loop's own callback, so the count of slices is exact.
@Suite(.responseChecks)
struct BlockingWaitTests {
    @Test func callsBackOncePerSliceWithoutAnAnswer_thenReturnsTheValue() throws {
        let (response, resolver) = Response<Int>.pending(on: .immediate)
        var slices: [Int] = []

        let result = BlockingWait.result(of: response, checkingEvery: .milliseconds(1)) { slice in
            slices.append(slice)
            if slice == 3 { resolver.succeed(42) }
        }

        #expect(slices == [1, 2, 3])
        #expect(try result.get() == 42)
    }

    @Test func aResponseThatIsAlreadyDone_returnsWithoutCallingBack() throws {
        var slices = 0

        let result = BlockingWait.result(of: Response.succeeded("done", on: .immediate), checkingEvery: .seconds(60)) {
            _ in
            slices += 1
        }

        #expect(slices == 0)
        #expect(try result.get() == "done")
    }

    @Test func aResponseThatFailsWithTimedOut_isReportedAsItsFailure_notWaitedOnForever() {
        let (response, resolver) = Response<Int>.pending(on: .immediate)

        let result = BlockingWait.result(of: response, checkingEvery: .milliseconds(1)) { _ in
            resolver.fail(ResponseError.timedOut)
        }

        #expect(throws: ResponseError.timedOut) { try result.get() }
    }

    @Test func givingUpOnASlice_neverCancelsTheResponse() {
        let (response, resolver) = Response<Int>.pending(on: .immediate)

        _ = BlockingWait.result(of: response, checkingEvery: .milliseconds(1)) { slice in
            #expect(!response.isCancelled)
            if slice == 2 { resolver.succeed(1) }
        }

        #expect(response.isSuccessful)
    }
}
