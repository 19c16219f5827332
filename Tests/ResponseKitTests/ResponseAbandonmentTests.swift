import Dispatch
import ResponseKit
import ResponseKitTesting
import Testing

/// A pending response whose last resolver is released can never be resolved: it fails with
/// `ResponseError.abandoned`, everyone waiting hears it, and the diagnostics hook says so once.
struct ResponseAbandonmentTests {
    init() { startRecordingDiagnostics() }

    @Test func droppingTheLastResolver_failsTheResponse_withAbandoned() {
        var resolver: Response<Int>.Resolver?
        let response: Response<Int>
        (response, resolver) = pendingWithDroppableResolver()
        #expect(!response.isDone)
        resolver = nil
        #expect(response.isDone)
        #expect(response.error as? ResponseError == .abandoned)
        #expect(!response.isCancelled)
        _ = resolver
    }

    @Test func aResolverCopy_keepsTheResponsePending_untilTheLastCopyGoes() throws {
        var resolver: Response<Int>.Resolver?
        let response: Response<Int>
        (response, resolver) = pendingWithDroppableResolver()
        var copy: Response<Int>.Resolver? = resolver
        resolver = nil
        #expect(!response.isDone, "a copy of the resolver can still resolve it")
        copy?.succeed(3)
        copy = nil
        #expect(try response.value == 3)
    }

    @Test func everyCallbackReaderAndAwaitingTask_hearsOfTheAbandonment() async throws {
        var resolver: Response<Int>.Resolver?
        let response: Response<Int>
        (response, resolver) = pendingWithDroppableResolver()
        let failures = Recorder<ResponseError?>()
        response.onFailure { failures.record($0 as? ResponseError) }
        response.onResult { if case .failure(let error) = $0 { failures.record(error as? ResponseError) } }
        let blockedReader = Response<ResponseError?>.pending(on: .immediate)
        DispatchQueue.global().async { blockedReader.resolver.succeed(response.error as? ResponseError) }
        let awaiting = Task { () -> ResponseError? in
            do {
                _ = try await response.get()
                return nil
            } catch {
                return error as? ResponseError
            }
        }

        resolver = nil

        #expect(failures.values == [.abandoned, .abandoned])
        #expect(try blockedReader.response.value == .abandoned)
        #expect(await awaiting.value == .abandoned)
        _ = resolver
    }

    @Test func theAbandonment_isReportedOnce_namingTheCreationSite() {
        var creationLine: UInt = 0
        do {
            let (response, resolver) = Response<Int>.pending(on: .immediate)
            creationLine = #line - 1
            _ = response.map { $0 + 1 }.map { $0 + 1 }  // derived responses carry the failure on, unreported
            _ = resolver
        }
        let reports = diagnostics(forResponseCreatedAt: creationLine)
        #expect(reports.map(\.kind) == [.abandoned])
        #expect(reports.first?.message.contains("ResponseAbandonmentTests.swift:\(creationLine)") == true)
    }

    @Test func aResolvedResponse_isNotAbandoned_whenItsResolverGoes() throws {
        var creationLine: UInt = 0
        let response: Response<Int>
        do {
            let (made, resolver) = Response<Int>.pending(on: .immediate)
            creationLine = #line - 1
            resolver.succeed(5)
            response = made
        }
        #expect(try response.value == 5)
        #expect(diagnostics(forResponseCreatedAt: creationLine).isEmpty)
    }

    @Test func aCancelledResponse_isNotAbandoned_whenItsResolverGoes() {
        var creationLine: UInt = 0
        let response: Response<Int>
        do {
            let (made, resolver) = Response<Int>.pending(on: .immediate)
            creationLine = #line - 1
            made.cancel()
            _ = resolver
            response = made
        }
        #expect(response.error is CancellationError)
        #expect(diagnostics(forResponseCreatedAt: creationLine).isEmpty)
    }

    @Test func workThatDropsItsResolver_onAnotherThread_failsTheResponse() async throws {
        let response = Self.forgetfulInteractor()
        #expect(try await onOwnThread { response.error as? ResponseError } == .abandoned)
    }

    /// An interactor whose work forgets to resolve: only its queued block holds the resolver.
    static func forgetfulInteractor() -> Response<Int> {
        let (response, resolver) = Response<Int>.pending()
        DispatchQueue.global().async { _ = resolver.isCancelled }
        return response
    }

    @Test func responseMadeFromAQueue_isNeverAbandoned() throws {
        let response = Response<Int>(on: .global(), executor: .immediate) { 9 }
        #expect(try response.value == 9)
    }
}

/// A pending response (delivering inline) and its resolver as an optional, so a test can drop it.
func pendingWithDroppableResolver() -> (Response<Int>, Response<Int>.Resolver?) {
    let (response, resolver) = Response<Int>.pending(on: .immediate)
    return (response, resolver)
}
