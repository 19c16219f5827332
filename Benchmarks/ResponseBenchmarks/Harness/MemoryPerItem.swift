/// Measures memory per item: holds `count` items at once and compares a reading taken before
/// making them with one taken after.
enum MemoryPerItem {
    /// Bytes per item, by `reading` (resident memory, or malloc's bytes in use).
    ///
    /// The array that holds the items is allocated and written before the first reading, so only
    /// the items count. `release` then disposes of each item (resolves it, say) after the second
    /// reading. `nil` when `reading` is not available here.
    static func bytes<Item>(
        count: Int,
        reading: () -> Int?,
        make: () -> Item,
        release: (Int, Item) -> Void
    ) -> Double? {
        var items = [Item?](repeating: nil, count: count)
        MallocHeap.releaseFreedMemory()
        guard let before = reading() else { return nil }
        for index in 0..<count {
            items[index] = make()
        }
        guard let after = reading() else { return nil }
        for index in 0..<count {
            release(index, items[index]!)
            items[index] = nil
        }
        items = []
        MallocHeap.releaseFreedMemory()
        return Double(after - before) / Double(count)
    }
}
