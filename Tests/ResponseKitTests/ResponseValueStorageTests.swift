import ResponseKit
import ResponseKitTesting
import Testing

/// A response stores its success value by hand (two words inline, or a box for larger values), so
/// that its deinit needs no generic-metadata lookup. These tests pin what that storage must keep:
/// every kind of value comes back intact, as often as it is read, and is released exactly once
/// with its response (the address sanitizer's leak checker watches the same runs in CI).
struct ResponseValueStorageTests {
    init() { startRecordingDiagnostics() }

    /// A value too large for the inline words: it goes into a box.
    struct Large: Equatable, Sendable {
        var a = 1
        var b = 2
        var c = 3
        var name = "large value"
    }

    /// Over-aligned: boxed whatever its size.
    struct OverAligned: Equatable, Sendable {
        var vector = SIMD4<Float>(1, 2, 3, 4)
    }

    // MARK: - values come back intact

    @Test func inlineValues_comeBackIntact_fromEveryKindOfResponse() throws {
        #expect(try Response.succeeded(42, on: .immediate).value == 42)
        #expect(
            try Response.succeeded("a string longer than fifteen bytes", on: .immediate).value
                == "a string longer than fifteen bytes")
        #expect(try Response.succeeded([1, 2, 3], on: .immediate).value == [1, 2, 3])
        #expect(try Response.succeeded(Optional(7), on: .immediate).value == 7)
        let (pending, resolver) = Response<String>.pending(on: .immediate)
        resolver.succeed("resolved later, read twice")
        #expect(try pending.value == "resolved later, read twice")
        #expect(try pending.value == "resolved later, read twice")
        try Response<Void>.succeeded((), on: .immediate).value
    }

    @Test func boxedValues_comeBackIntact() throws {
        #expect(try Response.succeeded(Large(), on: .immediate).value == Large())
        #expect(try Response.succeeded(OverAligned(), on: .immediate).value == OverAligned())
        let (pending, resolver) = Response<Large>.pending(on: .immediate)
        let recorder = Recorder<Large>()
        pending.onCompletion { recorder.record($0) }
        resolver.succeed(Large(a: 9, b: 8, c: 7, name: "delivered"))
        #expect(recorder.values == [Large(a: 9, b: 8, c: 7, name: "delivered")])
        #expect(try pending.map { $0.name }.value == "delivered")
    }

    // MARK: - values are released once, with their response

    @Test func anInlineObjectValue_isReleasedWithItsResponse() {
        weak var weakValue: Sentinel?
        do {
            let value = Sentinel()
            weakValue = value
            let (response, resolver) = Response<Sentinel>.pending(on: .immediate)
            resolver.succeed(value)
            #expect(response.isSuccessful)
        }
        #expect(weakValue == nil)
    }

    @Test func aBoxedValueHoldingAnObject_isReleasedWithItsResponse() {
        struct Holder: Sendable {
            var a = 0
            var b = 0
            var object: Sentinel
        }
        weak var weakValue: Sentinel?
        do {
            let object = Sentinel()
            weakValue = object
            let response = Response.succeeded(Holder(object: object), on: .immediate)
            #expect((try? response.value)?.object === object)
        }
        #expect(weakValue == nil)
    }

    @Test func theLosingResult_ofAResolveRace_isReleased_andTheWinnerKept() throws {
        weak var weakLoser: Sentinel?
        let winner = Sentinel()
        let (response, resolver) = Response<Sentinel>.pending(on: .immediate)
        let creationLine = UInt(#line) - 1
        resolver.succeed(winner)
        do {
            let loser = Sentinel()
            weakLoser = loser
            #expect(resolver.succeed(loser) == false)
        }
        #expect(weakLoser == nil)
        #expect(diagnostics(forResponseCreatedAt: creationLine).map(\.kind) == [.resolvedTwice])
        #expect(try response.value === winner)
    }

    @Test func valuesOfAChain_areReleased_whenTheChainGoes() {
        weak var weakFirst: Sentinel?
        weak var weakLast: Sentinel?
        do {
            let (source, resolver) = Response<Sentinel>.pending(on: .immediate)
            let end = source.map { _ in Sentinel() }
            resolver.succeed(Sentinel())
            weakFirst = try? source.value
            weakLast = try? end.value
            #expect(weakFirst != nil && weakLast != nil)
        }
        #expect(weakFirst == nil)
        #expect(weakLast == nil)
    }
}
