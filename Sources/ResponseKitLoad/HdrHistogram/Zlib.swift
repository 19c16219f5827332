/// The zlib container (RFC 1950) around DEFLATE data (RFC 1951), as HdrHistogram's compressed
/// histograms carry it: written uncompressed, read whatever the writer did.
///
/// Why written by hand: ResponseKit takes no package dependency, and zlib's headers are not on
/// every machine with Swift. Writing needs no compression to be valid (DEFLATE's stored blocks,
/// which every reader takes; a histogram's payload is already a run-length encoding, so little is
/// lost). Reading must take what HdrHistogram's own tools write (Java's `Deflater`, Python's
/// `zlib`), so the inflater handles all three block kinds.
enum Zlib {
    /// Why some bytes are not zlib data.
    struct DataError: Error, Hashable, CustomStringConvertible {
        /// What was wrong.
        let reason: String
        var description: String { "zlib: \(reason)" }
    }

    /// `bytes` in a zlib stream of stored blocks.
    static func wrap(_ bytes: [UInt8]) -> [UInt8] {
        // CMF 0x78: DEFLATE with a 32 KB window; FLG 0x01: no dictionary, fastest level, and
        // (0x78 × 256 + 0x01) divisible by 31, as the header check requires.
        var out: [UInt8] = [0x78, 0x01]
        out.reserveCapacity(bytes.count + bytes.count / 65_535 * 5 + 11)
        var start = 0
        repeat {
            let length = min(65_535, bytes.count - start)
            let isFinal = start + length == bytes.count
            out.append(isFinal ? 1 : 0)  // BFINAL, then BTYPE 00 (stored), padded to the byte
            out.append(UInt8(truncatingIfNeeded: length))
            out.append(UInt8(truncatingIfNeeded: length >> 8))
            out.append(UInt8(truncatingIfNeeded: ~length))
            out.append(UInt8(truncatingIfNeeded: ~length >> 8))
            out.append(contentsOf: bytes[start..<start + length])
            start += length
        } while start < bytes.count
        let checksum = adler32(bytes)
        for shift in stride(from: 24, through: 0, by: -8) { out.append(UInt8(truncatingIfNeeded: checksum >> shift)) }
        return out
    }

    /// The bytes of the zlib stream `data`, checked against its checksum.
    ///
    /// - Throws: ``DataError`` when the stream is not zlib, is cut short, or its checksum differs.
    static func unwrap(_ data: [UInt8]) throws -> [UInt8] {
        guard data.count >= 6 else { throw DataError(reason: "too short") }
        let cmf = data[0]
        let flg = data[1]
        guard cmf & 0x0F == 8, (UInt16(cmf) << 8 | UInt16(flg)) % 31 == 0 else {
            throw DataError(reason: "not a zlib header")
        }
        guard flg & 0x20 == 0 else { throw DataError(reason: "a preset dictionary is not supported") }
        var inflater = Inflater(data[2..<(data.count - 4)])
        let bytes = try inflater.inflate()
        let stored = data[(data.count - 4)...].reduce(UInt32(0)) { $0 << 8 | UInt32($1) }
        guard adler32(bytes) == stored else { throw DataError(reason: "checksum mismatch") }
        return bytes
    }

    /// RFC 1950's Adler-32.
    static func adler32(_ bytes: [UInt8]) -> UInt32 {
        var a: UInt32 = 1
        var b: UInt32 = 0
        var index = 0
        while index < bytes.count {
            // 5,552 bytes at most between reductions keeps both sums below 2³².
            let end = min(index + 5_552, bytes.count)
            while index < end {
                a &+= UInt32(bytes[index])
                b &+= a
                index += 1
            }
            a %= 65_521
            b %= 65_521
        }
        return b << 16 | a
    }
}

/// A DEFLATE decoder (RFC 1951): stored, fixed-Huffman and dynamic-Huffman blocks.
private struct Inflater {
    private let input: ArraySlice<UInt8>
    private var position: Int
    private var bitBuffer: UInt64 = 0
    private var bitCount = 0
    private var output: [UInt8] = []

    init(_ input: ArraySlice<UInt8>) {
        self.input = input
        position = input.startIndex
    }

    mutating func inflate() throws -> [UInt8] {
        var isFinal = false
        while !isFinal {
            isFinal = try bits(1) == 1
            switch try bits(2) {
            case 0: try storedBlock()
            case 1: try huffmanBlock(literals: .fixedLiterals, distances: .fixedDistances)
            case 2:
                let (literals, distances) = try dynamicTables()
                try huffmanBlock(literals: literals, distances: distances)
            default: throw Zlib.DataError(reason: "a block of the reserved type")
            }
        }
        return output
    }

    private mutating func bits(_ count: Int) throws -> Int {
        while bitCount < count {
            guard position < input.endIndex else { throw Zlib.DataError(reason: "data cut short") }
            bitBuffer |= UInt64(input[position]) << UInt64(bitCount)
            position += 1
            bitCount += 8
        }
        let value = Int(bitBuffer & ((1 << UInt64(count)) - 1))
        bitBuffer >>= UInt64(count)
        bitCount -= count
        return value
    }

    private mutating func storedBlock() throws {
        bitBuffer = 0  // the rest of the current byte is padding
        bitCount = 0
        guard position + 4 <= input.endIndex else { throw Zlib.DataError(reason: "data cut short") }
        let length = Int(input[position]) | Int(input[position + 1]) << 8
        let complement = Int(input[position + 2]) | Int(input[position + 3]) << 8
        guard length == ~complement & 0xFFFF else { throw Zlib.DataError(reason: "a stored block's length is corrupt") }
        position += 4
        guard position + length <= input.endIndex else { throw Zlib.DataError(reason: "data cut short") }
        output.append(contentsOf: input[position..<position + length])
        position += length
    }

    private static let lengthBases = [
        3, 4, 5, 6, 7, 8, 9, 10, 11, 13, 15, 17, 19, 23, 27, 31, 35, 43, 51, 59, 67, 83, 99, 115, 131, 163, 195, 227,
        258,
    ]
    private static let lengthExtraBits = [
        0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3, 4, 4, 4, 4, 5, 5, 5, 5, 0,
    ]
    private static let distanceBases = [
        1, 2, 3, 4, 5, 7, 9, 13, 17, 25, 33, 49, 65, 97, 129, 193, 257, 385, 513, 769, 1025, 1537, 2049, 3073, 4097,
        6145, 8193, 12289, 16385, 24577,
    ]
    private static let distanceExtraBits = [
        0, 0, 0, 0, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6, 6, 7, 7, 8, 8, 9, 9, 10, 10, 11, 11, 12, 12, 13, 13,
    ]

    private mutating func huffmanBlock(literals: HuffmanCode, distances: HuffmanCode) throws {
        while true {
            let symbol = try decode(literals)
            if symbol < 256 {
                output.append(UInt8(symbol))
            } else if symbol == 256 {
                return
            } else {
                let lengthIndex = symbol - 257
                guard lengthIndex < Self.lengthBases.count else { throw Zlib.DataError(reason: "a bad length code") }
                let length = Self.lengthBases[lengthIndex] + (try bits(Self.lengthExtraBits[lengthIndex]))
                let distanceIndex = try decode(distances)
                guard distanceIndex < Self.distanceBases.count else {
                    throw Zlib.DataError(reason: "a bad distance code")
                }
                let distance = Self.distanceBases[distanceIndex] + (try bits(Self.distanceExtraBits[distanceIndex]))
                guard distance <= output.count else { throw Zlib.DataError(reason: "a distance before the start") }
                let start = output.count - distance
                for offset in 0..<length { output.append(output[start + offset]) }  // may overlap
            }
        }
    }

    private mutating func decode(_ code: HuffmanCode) throws -> Int {
        // Canonical Huffman, one bit at a time: codes of each length are consecutive numbers.
        var value = 0
        var first = 0
        var index = 0
        for length in 1...15 {
            value |= try bits(1)
            let count = code.counts[length]
            if value - first < count { return code.symbols[index + value - first] }
            index += count
            first = (first + count) << 1
            value <<= 1
        }
        throw Zlib.DataError(reason: "an invalid Huffman code")
    }

    private mutating func dynamicTables() throws -> (HuffmanCode, HuffmanCode) {
        let literalCount = try bits(5) + 257
        let distanceCount = try bits(5) + 1
        let codeLengthCount = try bits(4) + 4
        let order = [16, 17, 18, 0, 8, 7, 9, 6, 10, 5, 11, 4, 12, 3, 13, 2, 14, 1, 15]
        var codeLengths = [Int](repeating: 0, count: 19)
        for index in 0..<codeLengthCount { codeLengths[order[index]] = try bits(3) }
        let codeLengthCode = HuffmanCode(lengths: codeLengths)
        var lengths: [Int] = []
        while lengths.count < literalCount + distanceCount {
            let symbol = try decode(codeLengthCode)
            switch symbol {
            case 0...15: lengths.append(symbol)
            case 16:
                guard let previous = lengths.last else { throw Zlib.DataError(reason: "a repeat with nothing before") }
                lengths.append(contentsOf: repeatElement(previous, count: 3 + (try bits(2))))
            case 17: lengths.append(contentsOf: repeatElement(0, count: 3 + (try bits(3))))
            default: lengths.append(contentsOf: repeatElement(0, count: 11 + (try bits(7))))
            }
        }
        guard lengths.count == literalCount + distanceCount else { throw Zlib.DataError(reason: "too many lengths") }
        return (
            HuffmanCode(lengths: Array(lengths[..<literalCount])),
            HuffmanCode(lengths: Array(lengths[literalCount...]))
        )
    }
}

/// A canonical Huffman code: how many codes each length has, and the symbols in code order.
private struct HuffmanCode {
    var counts = [Int](repeating: 0, count: 16)
    var symbols: [Int] = []

    init(lengths: [Int]) {
        for length in lengths { counts[length] += 1 }
        counts[0] = 0
        var offsets = [Int](repeating: 0, count: 16)
        for length in 1..<16 { offsets[length] = offsets[length - 1] + counts[length - 1] }
        symbols = [Int](repeating: 0, count: lengths.count)
        for (symbol, length) in lengths.enumerated() where length > 0 {
            symbols[offsets[length]] = symbol
            offsets[length] += 1
        }
    }

    static let fixedLiterals = HuffmanCode(
        lengths: Array(repeating: 8, count: 144) + Array(repeating: 9, count: 112) + Array(repeating: 7, count: 24)
            + Array(repeating: 8, count: 8))
    static let fixedDistances = HuffmanCode(lengths: Array(repeating: 5, count: 30))
}
