import Foundation

/// HdrHistogram's own formats for a ``LatencyHistogram``: the compressed V2 encoding (one line of
/// an interval log, `.hlog`) and the percentile distribution (`.hgrm`).
///
/// A `LatencyHistogram` *is* an HdrHistogram: its buckets are those of one with two significant
/// digits and a lowest discernible value of 1 ns (256 exact values, then 128 sub-buckets per power
/// of two), so its counters are written as they are, index for index, and read back as they were.
/// Histograms written with other settings are read by moving each counter to the bucket of its
/// lowest value.
@available(macOS 13, iOS 16, tvOS 16, watchOS 9, *)
extension LatencyHistogram {
    /// Why some text is not a histogram HdrHistogram's V2 encoding describes.
    public struct HdrHistogramFormatError: Error, Hashable, CustomStringConvertible {
        /// What was wrong.
        public let reason: String

        /// The reason, prefixed.
        public var description: String { "HdrHistogram encoding: \(reason)" }
    }

    /// The significant digits HdrHistogram would be given for this layout.
    static let hdrSignificantDigits = 2
    /// The largest value HdrHistogram can track (it counts in signed 64-bit integers); larger ones
    /// are written as this one.
    static let hdrHighestTrackableValue = UInt64(Int64.max)
    private static let encodingCookie: UInt32 = 0x1c84_9303 | 0x10
    private static let compressedEncodingCookie: UInt32 = 0x1c84_9304 | 0x10

    /// The histogram in HdrHistogram's compressed V2 encoding, in base64: what HdrHistogram's
    /// `Histogram.decodeFromCompressedByteBuffer`, its interval-log readers and its ports (such as
    /// Python's `hdrh`) read. ``HistogramLog`` writes one per interval.
    ///
    /// The counters are the histogram's own, so a histogram read back from this text is equal to
    /// this one in every bucket; its minimum, maximum and mean are then those of its buckets
    /// (see ``init(hdrHistogramEncoded:)``).
    public var hdrHistogramEncoded: String {
        var payload = ByteWriter()
        payload.put32(Self.encodingCookie)
        payload.put32(0)  // the payload's length, filled in below
        payload.put32(0)  // normalizing index offset
        payload.put32(UInt32(Self.hdrSignificantDigits))
        payload.put64(1)  // lowest discernible value
        payload.put64(Self.hdrHighestTrackableValue)
        payload.put64(Double(1).bitPattern)  // integer-to-double conversion ratio
        let headerLength = payload.bytes.count
        payload.putRunLengths(of: hdrCounts)
        payload.set32(UInt32(payload.bytes.count - headerLength), at: 4)
        let compressed = Zlib.wrap(payload.bytes)
        var outer = ByteWriter()
        outer.put32(Self.compressedEncodingCookie)
        outer.put32(UInt32(compressed.count))
        return Data(outer.bytes + compressed).base64EncodedString()
    }

    /// The counters as HdrHistogram indexes them, up to the maximum's: the same as this
    /// histogram's, with any beyond HdrHistogram's largest trackable value added to its bucket.
    private var hdrCounts: [UInt64] {
        guard !isEmpty else { return [] }
        let limit = Self.bucket(of: Swift.min(exactFigures.maximum, Self.hdrHighestTrackableValue))
        var counts = Array(countsByBucket.prefix(limit + 1))
        for beyond in countsByBucket.dropFirst(limit + 1) { counts[limit] &+= beyond }
        return counts
    }

    /// Reads a histogram from HdrHistogram's compressed V2 encoding in base64
    /// (``hdrHistogramEncoded``, or what HdrHistogram's tools wrote).
    ///
    /// The encoding keeps counters, not the exact figures, so ``minimum`` reads as the lowest
    /// value of the lowest bucket, ``maximum`` as the highest value of the highest bucket and
    /// ``mean`` from the buckets' middles.
    ///
    /// - Parameter text: base64 text, surrounding whitespace allowed.
    /// - Throws: ``HdrHistogramFormatError`` when the text is not such an encoding.
    public init(hdrHistogramEncoded text: String) throws {
        guard let data = Data(base64Encoded: text.trimmingCharacters(in: .whitespacesAndNewlines)) else {
            throw HdrHistogramFormatError(reason: "not base64")
        }
        var outer = ByteReader(Array(data))
        let cookie = try outer.get32()
        guard cookie & ~0xF0 == Self.compressedEncodingCookie & ~0xF0 else {
            throw HdrHistogramFormatError(reason: "not a compressed V2 histogram (cookie \(String(cookie, radix: 16)))")
        }
        let length = Int(try outer.get32())
        guard length == outer.remaining else {
            throw HdrHistogramFormatError(
                reason: "the compressed length says \(length) bytes, \(outer.remaining) follow")
        }
        let payload: [UInt8]
        do {
            payload = try Zlib.unwrap(outer.rest)
        } catch {
            throw HdrHistogramFormatError(reason: "\(error)")
        }
        var reader = ByteReader(payload)
        guard try reader.get32() & ~0xF0 == Self.encodingCookie & ~0xF0 else {
            throw HdrHistogramFormatError(reason: "the compressed contents are not a V2 histogram")
        }
        let payloadLength = Int(try reader.get32())
        let offset = try reader.get32()
        let digits = Int(try reader.get32())
        let lowest = try reader.get64()
        _ = try reader.get64()  // highest trackable value: every value fits here
        _ = try reader.get64()  // conversion ratio: counts are integers either way
        guard offset == 0 else { throw HdrHistogramFormatError(reason: "a normalizing index offset is not supported") }
        guard (0...5).contains(digits), lowest >= 1, lowest <= 1 << 62 else {
            throw HdrHistogramFormatError(reason: "settings out of range (\(digits) digits, lowest value \(lowest))")
        }
        guard payloadLength == reader.remaining else {
            throw HdrHistogramFormatError(reason: "the payload says \(payloadLength) bytes, \(reader.remaining) follow")
        }
        let layout = HdrLayout(significantDigits: digits, lowestDiscernibleValue: lowest)
        self.init(counting: try reader.getRunLengths(lowestValue: layout.lowestValue(atIndex:)))
    }

    /// Reads ``hdrHistogramEncoded`` text, with the exact figures the encoding leaves out (what a
    /// report's JSON carries beside it).
    init(hdrHistogramEncoded text: String, minimum: UInt64, maximum: UInt64, total: UInt64) throws {
        let decoded = try LatencyHistogram(hdrHistogramEncoded: text)
        let buckets = decoded.nonEmptyBuckets
        self.init(buckets: buckets, minimum: minimum, maximum: maximum, total: total)
    }

    /// A histogram of `buckets` as they would be counted here, with the exact figures read off
    /// the buckets (the lowest value, the highest, the middles' sum).
    init(counting buckets: [(lowestNanoseconds: UInt64, count: UInt64)]) {
        var lowestIndex = Int.max
        var highestIndex = -1
        var total: UInt64 = 0
        for (lowest, count) in buckets where count > 0 {
            let index = Self.bucket(of: lowest)
            lowestIndex = Swift.min(lowestIndex, index)
            highestIndex = Swift.max(highestIndex, index)
            let (product, overflow) = Self.medianValue(ofBucket: index).multipliedReportingOverflow(by: count)
            let (sum, carry) = total.addingReportingOverflow(product)
            total = overflow || carry ? .max : sum
        }
        guard highestIndex >= 0 else {
            self.init()
            return
        }
        self.init(
            buckets: buckets, minimum: Self.range(ofBucket: lowestIndex).lowest,
            maximum: Self.highestEquivalentValue(ofBucket: highestIndex), total: total)
    }

    /// The middle of a bucket as HdrHistogram takes it: its lowest value plus half its width.
    static func medianValue(ofBucket index: Int) -> UInt64 {
        let (lowest, width) = range(ofBucket: index)
        return lowest + width / 2
    }
}

/// HdrHistogram's bucket layout for given settings: how its counter index maps to values.
struct HdrLayout {
    let subBucketHalfCountMagnitude: Int
    let unitMagnitude: Int

    init(significantDigits: Int, lowestDiscernibleValue: UInt64) {
        var largestSingleUnit = 2
        for _ in 0..<significantDigits { largestSingleUnit *= 10 }
        // ceil(log2(2 × 10^digits)), as HdrHistogram computes it.
        var subBucketCountMagnitude = 0
        while 1 << subBucketCountMagnitude < largestSingleUnit { subBucketCountMagnitude += 1 }
        subBucketHalfCountMagnitude = Swift.max(subBucketCountMagnitude, 1) - 1
        unitMagnitude = 63 - lowestDiscernibleValue.leadingZeroBitCount
    }

    /// The lowest value counted at `index`, or `nil` past 64 bits.
    func lowestValue(atIndex index: Int) -> UInt64? {
        let halfCount = 1 << subBucketHalfCountMagnitude
        var bucketIndex = (index >> subBucketHalfCountMagnitude) - 1
        var subBucketIndex = (index & (halfCount - 1)) + halfCount
        if bucketIndex < 0 {
            subBucketIndex -= halfCount
            bucketIndex = 0
        }
        let shift = bucketIndex + unitMagnitude
        let bits = 64 - UInt64(subBucketIndex).leadingZeroBitCount
        guard shift + bits <= 64 else { return nil }
        return UInt64(subBucketIndex) << UInt64(shift)
    }
}

/// A histogram packed as HdrHistogram packs its counters (ZigZag LEB128 numbers, a run of empty
/// buckets as one negative number), with its exact figures beside them: what a run keeps for each
/// of its intervals, about a kilobyte where the counters take up to 58.
@available(macOS 13, iOS 16, tvOS 16, watchOS 9, *)
struct PackedLatencyHistogram: Sendable, Hashable {
    private let counts: [UInt8]
    private let minimum: UInt64
    private let maximum: UInt64
    private let total: UInt64

    init(_ histogram: LatencyHistogram) {
        var writer = ByteWriter()
        writer.putRunLengths(of: histogram.countsByBucket)
        counts = writer.bytes
        (minimum, maximum, total) = histogram.exactFigures
    }

    /// The histogram again, equal to the one packed.
    var histogram: LatencyHistogram {
        var reader = ByteReader(counts)
        // Read back what `init` wrote, in this layout: it cannot fail.
        let buckets = (try? reader.getRunLengths { LatencyHistogram.range(ofBucket: $0).lowest }) ?? []
        return LatencyHistogram(buckets: buckets, minimum: minimum, maximum: maximum, total: total)
    }
}

/// An interval of a run, its histogram packed: what ``LoadIntervals`` and ``LoadReport`` keep.
@available(macOS 13, iOS 16, tvOS 16, watchOS 9, *)
struct PackedInterval: Sendable, Hashable {
    var start: Duration
    var length: Duration
    var latencies: PackedLatencyHistogram

    init(start: Duration, length: Duration, latencies: PackedLatencyHistogram) {
        self.start = start
        self.length = length
        self.latencies = latencies
    }

    init(_ interval: HistogramLog.Interval) {
        self.init(start: interval.start, length: interval.length, latencies: PackedLatencyHistogram(interval.histogram))
    }

    /// The interval with its histogram unpacked.
    var interval: HistogramLog.Interval {
        HistogramLog.Interval(start: start, length: length, histogram: latencies.histogram)
    }
}

/// Big-endian writing, as HdrHistogram's `ByteBuffer`s write.
private struct ByteWriter {
    var bytes: [UInt8] = []

    /// HdrHistogram's counters: each count as a number, a run of zeros as its negated length.
    mutating func putRunLengths(of counts: [UInt64]) {
        var index = 0
        while index < counts.count {
            let count = counts[index]
            index += 1
            if count == 0 {
                var zeros: Int64 = 1
                while index < counts.count, counts[index] == 0 {
                    zeros += 1
                    index += 1
                }
                putZigZag(zeros > 1 ? -zeros : 0)
            } else {
                putZigZag(Int64(clamping: count))
            }
        }
    }

    mutating func put32(_ value: UInt32) {
        for shift in stride(from: 24, through: 0, by: -8) { bytes.append(UInt8(truncatingIfNeeded: value >> shift)) }
    }

    mutating func put64(_ value: UInt64) {
        for shift in stride(from: 56, through: 0, by: -8) { bytes.append(UInt8(truncatingIfNeeded: value >> shift)) }
    }

    mutating func set32(_ value: UInt32, at offset: Int) {
        for index in 0..<4 { bytes[offset + index] = UInt8(truncatingIfNeeded: value >> (24 - 8 * index)) }
    }

    /// HdrHistogram's ZigZag LEB128: seven bits a byte for eight bytes, all eight of the ninth.
    mutating func putZigZag(_ value: Int64) {
        var encoded = UInt64(bitPattern: (value << 1) ^ (value >> 63))
        for _ in 0..<8 {
            if encoded >> 7 == 0 {
                bytes.append(UInt8(encoded))
                return
            }
            bytes.append(UInt8(truncatingIfNeeded: encoded & 0x7F) | 0x80)
            encoded >>= 7
        }
        bytes.append(UInt8(truncatingIfNeeded: encoded))
    }
}

/// Big-endian reading of what ``ByteWriter`` writes.
@available(macOS 13, iOS 16, tvOS 16, watchOS 9, *)
private struct ByteReader {
    private let bytes: [UInt8]
    private var position = 0

    init(_ bytes: [UInt8]) { self.bytes = bytes }

    var remaining: Int { bytes.count - position }
    var rest: [UInt8] { Array(bytes[position...]) }

    mutating func get32() throws -> UInt32 {
        guard remaining >= 4 else { throw LatencyHistogram.HdrHistogramFormatError(reason: "cut short") }
        defer { position += 4 }
        return bytes[position..<position + 4].reduce(0) { $0 << 8 | UInt32($1) }
    }

    mutating func get64() throws -> UInt64 {
        guard remaining >= 8 else { throw LatencyHistogram.HdrHistogramFormatError(reason: "cut short") }
        defer { position += 8 }
        return bytes[position..<position + 8].reduce(0) { $0 << 8 | UInt64($1) }
    }

    /// HdrHistogram's counters, as ``ByteWriter/putRunLengths(of:)`` writes them: the non-empty
    /// buckets, each as its lowest value (`lowestValue` of the counter's index; `nil` for an index
    /// beyond the largest value, which fails the read) and its count.
    mutating func getRunLengths(
        lowestValue: (Int) -> UInt64?
    ) throws -> [(lowestNanoseconds: UInt64, count: UInt64)] {
        var buckets: [(lowestNanoseconds: UInt64, count: UInt64)] = []
        var index = 0
        while remaining > 0 {
            let value = try getZigZag()
            if value < 0 {
                index += Int(clamping: -value)
            } else {
                if value > 0 {
                    guard let lowest = lowestValue(index) else {
                        throw LatencyHistogram.HdrHistogramFormatError(reason: "a counter beyond the largest value")
                    }
                    buckets.append((lowest, UInt64(value)))
                }
                index += 1
            }
        }
        return buckets
    }

    mutating func getZigZag() throws -> Int64 {
        var encoded: UInt64 = 0
        for byteIndex in 0..<9 {
            guard remaining > 0 else { throw LatencyHistogram.HdrHistogramFormatError(reason: "cut short") }
            let byte = bytes[position]
            position += 1
            if byteIndex == 8 {
                encoded |= UInt64(byte) << 56
                break
            }
            encoded |= UInt64(byte & 0x7F) << UInt64(7 * byteIndex)
            if byte & 0x80 == 0 { break }
        }
        return Int64(bitPattern: encoded >> 1) ^ -Int64(bitPattern: encoded & 1)
    }
}
