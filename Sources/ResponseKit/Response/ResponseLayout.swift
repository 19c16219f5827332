import CResponseKit

/// Where a response keeps its fields, for the code that reaches them by address.
///
/// A pending response with one callback, and the handle its resolver holds, fit in 96 bytes of
/// heap: the response is 56 bytes on Linux (one 64-byte malloc chunk), the handle 24 (a 32-byte
/// chunk). To get there, every byte of the response is used. The table is **64-bit Linux**, the
/// platform the memory benchmark (M1) measures; on Apple platforms the state word is 8 bytes (it
/// holds an `os_unfair_lock` beside the flags), so the creation file moves to offset 52, and on
/// 32-bit platforms (arm64_32 watchOS) every pointer is 4 bytes. Code never relies on these
/// numbers: `wordOffset` is computed from the sizes the compiler reports, and debug builds check
/// it against the real address on every platform (`Response.init`).
///
/// | offset | bytes | field |
/// | ---: | ---: | --- |
/// | 0 | 16 | the object header |
/// | 16 | 8 | the machine's link (its upstream or its extras) |
/// | 24 | 17 | the machine's state, whose last byte is its tag |
/// | 41 | 1 | the executor's kind and the creation line's high bits |
/// | 42 | 2 | the creation line's low bits |
/// | 44 | 4 | the state word (lock, flags, claims), 8 bytes with the Darwin lock |
/// | 48 | 8 | the creation file |
///
/// Swift lays out a class's stored properties in order, each at the next offset its alignment
/// allows after the previous one's *size* (not its stride), which is what lets the two small
/// fields and the word fill the state's last 8 bytes.
@usableFromInline
enum ResponseLayout {
    /// The state word's offset from a response's first stored property, whatever its `Value`:
    /// the machine's size does not depend on it (closures, references and a two-word slot).
    @inlinable @inline(__always)
    static var wordOffset: Int {
        let afterKind = MemoryLayout<ResponseStateMachine<Int>>.size + MemoryLayout<UInt8>.size
        let afterLine = alignUp(afterKind, MemoryLayout<UInt16>.alignment) + MemoryLayout<UInt16>.size
        return alignUp(afterLine, MemoryLayout<rk_word>.alignment)
    }

    /// The state word of `response`, which must be a ``Response`` (of any value type).
    @inlinable @inline(__always)
    static func word(of response: AnyObject) -> UnsafeMutablePointer<rk_word> {
        (_getUnsafePointerToStoredProperties(response) + wordOffset).assumingMemoryBound(to: rk_word.self)
    }

    /// The state of `response`'s machine, reached by a typed pointer rather than through the
    /// `machine` property: for the lock-free read of a delivered result (see
    /// `Response.deliveredResult`).
    ///
    /// It assumes only that `machine`, the first stored property, starts where the stored
    /// properties start (what swift-atomics' `ManagedAtomic` assumes of its first property too,
    /// and what `Response.init` checks in debug builds); where `state` lies inside the machine
    /// and how its enum is laid out is left to the compiler (`pointer(to:)`).
    @inlinable @inline(__always)
    static func state<Value>(of response: Response<Value>) -> UnsafePointer<ResponseStateMachine<Value>.State> {
        let machine = UnsafePointer(
            _getUnsafePointerToStoredProperties(response).assumingMemoryBound(to: ResponseStateMachine<Value>.self)
        )
        return machine.pointer(to: \.state).unsafelyUnwrapped
    }

    /// The bits of ``Response/executor`` that a response keeps inline: the main queue and inline
    /// need no allocation; anything else lives in the response's extras.
    @usableFromInline
    enum ExecutorKind {
        @inlinable static var main: UInt8 { 0 }
        @inlinable static var immediate: UInt8 { 1 }
        @inlinable static var elsewhere: UInt8 { 2 }
        @inlinable static var mask: UInt8 { 3 }
    }

    /// The largest creation line a response records; a later line is reported as 0.
    @inlinable static var maximumLine: UInt { 1 << 22 - 1 }

    @inlinable @inline(__always)
    static func alignUp(_ offset: Int, _ alignment: Int) -> Int {
        (offset + alignment - 1) & ~(alignment - 1)
    }
}
