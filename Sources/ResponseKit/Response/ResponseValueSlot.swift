/// Two words that hold a response's success value without naming its type, so that nothing the
/// compiler destroys in a response depends on `Value` (see ``ResponseOutcome``).
///
/// A value that fits two words, aligned to at most a word, and that may be moved by copying its
/// bytes (`_isBitwiseTakable`: every Swift value but those holding Objective-C weak references or
/// address-sensitive fields) is stored in the words themselves; any other value goes into a
/// ``ResponseValueBox`` whose retained reference the first word holds. The compiler sees only
/// plain bits: it copies them without retaining and never destroys them. Ownership is therefore
/// kept by hand: the slot a machine stores owns one value, reads (``value(as:)``) return copies,
/// and ``destroy(as:)`` runs exactly once, when the owner is done with it (the response's deinit,
/// or `complete` for an outcome that lost the race to finish).
@usableFromInline
struct ResponseValueSlot {
    @usableFromInline var words: (UInt, UInt)

    /// Whether `Value` is stored in the words rather than boxed.
    @inlinable @inline(__always)
    static func storesInline<Value>(_ type: Value.Type) -> Bool {
        MemoryLayout<Value>.size <= MemoryLayout<(UInt, UInt)>.size
            && MemoryLayout<Value>.alignment <= MemoryLayout<(UInt, UInt)>.alignment
            && _isBitwiseTakable(type)
    }

    /// A slot whose words were read from where a state keeps one (`ResponseLayout`): a view for
    /// reading, which owns nothing.
    @inlinable @inline(__always)
    init(words: (UInt, UInt)) {
        self.words = words
    }

    /// A slot owning a copy of `value`.
    @inlinable
    init<Value>(_ value: Value) {
        words = (0, 0)
        if Self.storesInline(Value.self) {
            withUnsafeMutableBytes(of: &words) { bytes in
                _ = bytes.baseAddress.unsafelyUnwrapped.initializeMemory(as: Value.self, to: value)
            }
        } else {
            words.0 = UInt(bitPattern: Unmanaged.passRetained(ResponseValueBox(value)).toOpaque())
        }
    }

    /// A copy of the value; the slot keeps its own.
    @inlinable
    func value<Value>(as type: Value.Type) -> Value {
        if Self.storesInline(type) {
            return withUnsafeBytes(of: words) { bytes in bytes.load(as: Value.self) }
        }
        let box = UnsafeRawPointer(bitPattern: words.0).unsafelyUnwrapped
        return Unmanaged<ResponseValueBox<Value>>.fromOpaque(box).takeUnretainedValue().value
    }

    /// Destroys the value the slot owns. Call it once, from the slot's owner; the slot must not be
    /// read afterwards. Trivial values need nothing; a boxed value is one release, without the
    /// box's metadata.
    @inlinable @inline(__always)  // in the unspecialised deinit, a trivial value costs a few loads
    func destroy<Value>(as type: Value.Type) {
        if Self.storesInline(type) {
            guard !_isPOD(type) else { return }
            var bits = words  // the value's bytes, moved out (it is bitwise takable) and destroyed there
            withUnsafeMutableBytes(of: &bits) { bytes in
                _ = bytes.baseAddress.unsafelyUnwrapped.assumingMemoryBound(to: Value.self).deinitialize(count: 1)
            }
        } else {
            Unmanaged<AnyObject>.fromOpaque(UnsafeRawPointer(bitPattern: words.0).unsafelyUnwrapped).release()
        }
    }
}

/// A success value too large (or not movable by its bytes) for a ``ResponseValueSlot``'s words.
@usableFromInline
final class ResponseValueBox<Value> {
    @usableFromInline let value: Value

    @inlinable
    init(_ value: Value) {
        self.value = value
    }
}
