import Foundation
import ResponseKitLoad
import Testing

/// HdrHistogram's formats, checked against what HdrHistogram's own Java library (2.1.11, Debian's
/// `libhdrhistogram-java`) wrote for the same values: `HdrHistogramReference` below. CI also reads
/// the files the demo writes with the Python port (`hdrh`, `.ci/check-hdrhistogram`).
@Suite struct HdrHistogramFormatTests {
    /// 1 to 100 ms in steps of 1 ms, 1,000 values from 200 ns in steps of 37 ns, and 3 s.
    static var referenceValues: [UInt64] {
        (1...100).map { UInt64($0) * 1_000_000 } + (0..<1_000).map { 200 + UInt64($0) * 37 } + [3_000_000_000]
    }

    static var referenceHistogram: LatencyHistogram {
        var histogram = LatencyHistogram()
        for value in referenceValues { histogram.record(nanoseconds: value) }
        return histogram
    }

    @Test func percentiles_areHdrHistogramsValues() {
        // Java: getValueAtPercentile(25, 50, 90, 99, 99.9).
        let histogram = Self.referenceHistogram
        let expected: [(Double, Int64)] = [
            (25, 10_431), (50, 20_607), (90, 36_863), (99, 90_177_535), (99.9, 100_139_007),
        ]
        for (percentile, nanoseconds) in expected {
            #expect(histogram.value(atPercentile: percentile) == .nanoseconds(nanoseconds), "p\(percentile)")
        }
        // Java reports 200 and 3,003,121,663 for p0 and p100 (the buckets' bounds); here both
        // are the exact minimum and maximum, which lie within those buckets.
        #expect(histogram.value(atPercentile: 0) == .nanoseconds(200))
        #expect(histogram.value(atPercentile: 100) == .seconds(3))
    }

    @Test func theEncoding_readsBackBucketForBucket() throws {
        let histogram = Self.referenceHistogram
        let decoded = try LatencyHistogram(hdrHistogramEncoded: histogram.hdrHistogramEncoded)
        #expect(decoded.count == histogram.count)
        for percentile in stride(from: 0.5, through: 99.95, by: 0.5) {
            #expect(decoded.value(atPercentile: percentile) == histogram.value(atPercentile: percentile))
        }
        #expect(decoded.percentileDistribution() == histogram.percentileDistribution())
    }

    @Test func javasEncoding_deflated_readsAsTheSameHistogram() throws {
        let decoded = try LatencyHistogram(hdrHistogramEncoded: HdrHistogramReference.compressed)
        #expect(decoded.count == 1_101)
        #expect(decoded.percentileDistribution() == HdrHistogramReference.percentileDistribution)
    }

    @Test func thePercentileDistribution_isJavasByteForByte() {
        #expect(Self.referenceHistogram.percentileDistribution() == HdrHistogramReference.percentileDistribution)
    }

    @Test func thePercentileDistribution_roundsTiesAsJava_notAsPrintf() {
        // 10^9 / (6000 - i) ns: a long tail, so the lines past 99.97 % have buckets of their own.
        // Two of its percentiles, 0.99978027343750 and 0.99982910156250, are ties that C's
        // printf rounds down (their doubles lie just below) and Java's Formatter rounds up.
        var histogram = LatencyHistogram()
        for index in 0..<6_000 { histogram.record(nanoseconds: 1_000_000_000 / UInt64(6_000 - index)) }
        #expect(histogram.percentileDistribution() == HdrHistogramReference.longTailPercentileDistribution)
        #expect(String(format: "%.12f", 0.9997802734375) == "0.999780273437", "printf still rounds the tie down")
    }

    @Test func anEmptyHistogram_encodesAndPrintsNothingButItsHeaders() throws {
        let empty = LatencyHistogram()
        let decoded = try LatencyHistogram(hdrHistogramEncoded: empty.hdrHistogramEncoded)
        #expect(decoded.isEmpty)
        let lines = empty.percentileDistribution().split(separator: "\n")
        #expect(lines.count == 4)
        #expect(lines[1].hasPrefix("#[Mean    =         0.00"))
    }

    @Test func javasIntervalLog_reads_withAnotherPrecisionAndATag() throws {
        let log = try HistogramLog(parsing: HdrHistogramReference.intervalLog)
        #expect(log.startTime == Date(timeIntervalSince1970: 1_700_000_000.123))
        #expect(log.intervals.map(\.start) == [.zero, .seconds(1)])
        #expect(log.intervals.map(\.length) == [.seconds(1), .seconds(1)])
        #expect(log.intervals.map(\.tag) == [nil, "login"])
        // The first was written with three significant digits: its counters move to this
        // layout's buckets, each at its lowest value. Java read p50 = 500,223 and p99 = 990,207.
        let first = log.intervals[0].histogram
        #expect(first.count == 1_000)
        #expect(isWithinStatedError(first.value(atPercentile: 50), of: .nanoseconds(500_000)))
        #expect(isWithinStatedError(first.value(atPercentile: 99), of: .nanoseconds(990_000)))
        let second = log.intervals[1].histogram
        #expect(second.count == 2)
        #expect(isWithinStatedError(second.value(atPercentile: 100), of: .milliseconds(7)))
    }

    @Test func ourIntervalLog_readsBack() throws {
        var first = LatencyHistogram()
        var second = LatencyHistogram()
        for value in Self.referenceValues { first.record(nanoseconds: value) }
        second.record(.milliseconds(42))
        let log = HistogramLog(
            startTime: Date(timeIntervalSince1970: 1_764_288_000.5),
            intervals: [
                .init(start: .zero, length: .seconds(1), histogram: first),
                .init(start: .milliseconds(1_000), length: .milliseconds(1_250), histogram: second, tag: "add"),
                .init(start: .milliseconds(2_250), length: .seconds(1), histogram: LatencyHistogram()),
            ])
        let text = log.text
        #expect(text.contains("#[Histogram log format version 1.3]\n"))
        #expect(text.contains("#[StartTime: 1764288000.500 (seconds since epoch), Fri Nov 28 00:00:00 UTC 2025]\n"))
        #expect(text.contains("\nTag=add,1.000,1.250,42.205,HISTF"))

        let read = try HistogramLog(parsing: text)
        #expect(read.startTime == log.startTime)
        #expect(read.intervals.map(\.start) == log.intervals.map(\.start))
        #expect(read.intervals.map(\.length) == log.intervals.map(\.length))
        #expect(read.intervals.map(\.tag) == [nil, "add", nil])
        #expect(read.intervals.map(\.histogram.count) == [1_101, 1, 0])
        #expect(read.intervals[0].histogram.percentileDistribution() == first.percentileDistribution())
        #expect(read.total.count == 1_102)
    }

    @Test func aBrokenLog_namesItsLine() {
        let text = "#[Histogram log format version 1.3]\n\"StartTimestamp\",\"Interval_Length\"\n0.000,1.000,x\n"
        let error = #expect(throws: HistogramLog.FormatError.self) { try HistogramLog(parsing: text) }
        #expect(error?.line == 3)
        #expect(error?.description == "HistogramLog, line 3: not an interval: 0.000,1.000,x")
    }

    @Test(arguments: [
        ("not base64 at all!", "not base64"),
        ("AAAAAA==", "not a compressed V2 histogram"),
        ("HISTFAAAAAR42gMAAAAB", "compressed length"),
    ])
    func aBrokenEncoding_saysWhat(text: String, reason: String) {
        do {
            _ = try LatencyHistogram(hdrHistogramEncoded: text)
            Issue.record("decoded \(text)")
        } catch {
            #expect("\(error)".contains(reason), "\(error)")
        }
    }

    @Test func aCorruptedEncoding_failsItsChecksum_orItsFormat_neverCrashes() throws {
        var bytes = Array(Data(base64Encoded: Self.referenceHistogram.hdrHistogramEncoded)!)
        for index in stride(from: 8, to: bytes.count, by: 7) {
            let saved = bytes[index]
            bytes[index] ^= 0x5A
            #expect(throws: LatencyHistogram.HdrHistogramFormatError.self) {
                try LatencyHistogram(hdrHistogramEncoded: Data(bytes).base64EncodedString())
            }
            bytes[index] = saved
        }
    }
}

/// What HdrHistogram's Java library wrote for ``HdrHistogramFormatTests/referenceValues``
/// (`new Histogram(1, Long.MAX_VALUE, 2)`), and an interval log its `HistogramLogWriter` wrote.
enum HdrHistogramReference {
    /// `encodeIntoCompressedByteBuffer`, in base64: deflated, as Java's `Deflater` compresses.
    static let compressed =
        "HISTFAAAAKl4nJNpmSzMwMBsxAABTFCasf4/BNh/gAj0MzO5M5kyKTIpw7E4Ez8QCoJJdJqTiZ2JFYqRSUJ8oAOYmJFIVB4mSZk8ExhjUPi5VFTEwsLChMAEmVRXxMYBhXAGPg71FfHx8fAhAJDNcpiT6S8jUzMjUzmTK5M1kyUQqzNJA6EsmATR4ky8TNxAjEyi8jmBSQkEmaE0KhsbC1OUAQ1iCOAXfMrJBABEYh1r"

    /// `outputPercentileDistribution(System.out, 1000000.0)`: milliseconds.
    static let percentileDistribution =
        """
               Value     Percentile TotalCount 1/(1-Percentile)

                0.00 0.000000000000          1           1.00
                0.00 0.100000000000        111           1.11
                0.01 0.200000000000        222           1.25
                0.01 0.300000000000        331           1.43
                0.02 0.400000000000        441           1.67
                0.02 0.500000000000        552           2.00
                0.02 0.550000000000        607           2.22
                0.02 0.600000000000        663           2.50
                0.03 0.650000000000        718           2.86
                0.03 0.700000000000        773           3.33
                0.03 0.750000000000        829           4.00
                0.03 0.775000000000        856           4.44
                0.03 0.800000000000        881           5.00
                0.03 0.825000000000        915           5.71
                0.03 0.850000000000        936           6.67
                0.04 0.875000000000        964           8.00
                0.04 0.887500000000        978           8.89
                0.04 0.900000000000        991          10.00
                5.01 0.912500000000       1005          11.43
               19.01 0.925000000000       1019          13.33
               33.03 0.937500000000       1033          16.00
               40.11 0.943750000000       1040          17.78
               46.14 0.950000000000       1046          20.00
               53.22 0.956250000000       1053          22.86
               60.03 0.962500000000       1060          26.67
               67.11 0.968750000000       1067          32.00
               71.30 0.971875000000       1071          35.56
               74.45 0.975000000000       1074          40.00
               77.07 0.978125000000       1077          45.71
               81.26 0.981250000000       1081          53.33
               84.41 0.984375000000       1084          64.00
               86.51 0.985937500000       1086          71.11
               88.08 0.987500000000       1088          80.00
               89.13 0.989062500000       1089          91.43
               91.23 0.990625000000       1091         106.67
               93.32 0.992187500000       1093         128.00
               94.37 0.992968750000       1094         142.22
               95.42 0.993750000000       1095         160.00
               95.42 0.994531250000       1095         182.86
               96.47 0.995312500000       1096         213.33
               97.52 0.996093750000       1097         256.00
               98.04 0.996484375000       1098         284.44
               98.04 0.996875000000       1098         320.00
               98.04 0.997265625000       1098         365.71
               99.09 0.997656250000       1099         426.67
               99.09 0.998046875000       1099         512.00
              100.14 0.998242187500       1100         568.89
              100.14 0.998437500000       1100         640.00
              100.14 0.998632812500       1100         731.43
              100.14 0.998828125000       1100         853.33
              100.14 0.999023437500       1100        1024.00
             3003.12 0.999121093750       1101        1137.78
             3003.12 1.000000000000       1101
        #[Mean    =         7.32, StdDeviation   =        91.65]
        #[Max     =      3003.12, Total count    =         1101]
        #[Buckets =           56, SubBuckets     =          256]
        """ + "\n"

    /// `outputPercentileDistribution(System.out, 1000000.0)` of 10^9 / (6000 - i) ns for i in
    /// 0..<6000 (``HdrHistogramFormatTests/thePercentileDistribution_roundsTiesAsJava_notAsPrintf()``).
    static let longTailPercentileDistribution =
        """
               Value     Percentile TotalCount 1/(1-Percentile)

                0.17 0.000000000000          9           1.00
                0.19 0.100000000000        605           1.11
                0.21 0.200000000000       1213           1.25
                0.24 0.300000000000       1809           1.43
                0.28 0.400000000000       2410           1.67
                0.33 0.500000000000       3005           2.00
                0.37 0.550000000000       3303           2.22
                0.42 0.600000000000       3607           2.50
                0.48 0.650000000000       3905           2.86
                0.56 0.700000000000       4205           3.33
                0.67 0.750000000000       4503           4.00
                0.74 0.775000000000       4652           4.44
                0.84 0.800000000000       4804           5.00
                0.95 0.825000000000       4953           5.71
                1.11 0.850000000000       5103           6.67
                1.34 0.875000000000       5252           8.00
                1.48 0.887500000000       5326           8.89
                1.67 0.900000000000       5402          10.00
                1.91 0.912500000000       5477          11.43
                2.23 0.925000000000       5552          13.33
                2.67 0.937500000000       5626          16.00
                2.97 0.943750000000       5663          17.78
                3.33 0.950000000000       5700          20.00
                3.82 0.956250000000       5739          22.86
                4.46 0.962500000000       5776          26.67
                5.34 0.968750000000       5813          32.00
                5.93 0.971875000000       5832          35.56
                6.65 0.975000000000       5850          40.00
                7.60 0.978125000000       5869          45.71
                8.91 0.981250000000       5888          53.33
               10.68 0.984375000000       5907          64.00
               11.80 0.985937500000       5916          71.11
               13.17 0.987500000000       5925          80.00
               15.20 0.989062500000       5935          91.43
               17.56 0.990625000000       5944         106.67
               21.36 0.992187500000       5954         128.00
               23.33 0.992968750000       5958         142.22
               26.35 0.993750000000       5963         160.00
               30.41 0.994531250000       5968         182.86
               34.60 0.995312500000       5972         213.33
               41.68 0.996093750000       5977         256.00
               45.61 0.996484375000       5979         284.44
               52.69 0.996875000000       5982         320.00
               58.98 0.997265625000       5984         365.71
               66.85 0.997656250000       5986         426.67
               83.36 0.998046875000       5989         512.00
               91.23 0.998242187500       5990         568.89
              100.14 0.998437500000       5991         640.00
              111.15 0.998632812500       5992         731.43
              125.30 0.998828125000       5993         853.33
              166.72 0.999023437500       5995        1024.00
              166.72 0.999121093750       5995        1137.78
              200.28 0.999218750000       5996        1280.00
              200.28 0.999316406250       5996        1462.86
              250.61 0.999414062500       5997        1706.67
              333.45 0.999511718750       5998        2048.00
              333.45 0.999560546875       5998        2275.56
              333.45 0.999609375000       5998        2560.00
              333.45 0.999658203125       5998        2925.71
              501.22 0.999707031250       5999        3413.33
              501.22 0.999755859375       5999        4096.00
              501.22 0.999780273438       5999        4551.11
              501.22 0.999804687500       5999        5120.00
              501.22 0.999829101563       5999        5851.43
             1002.44 0.999853515625       6000        6826.67
             1002.44 1.000000000000       6000
        #[Mean    =         1.55, StdDeviation   =        16.48]
        #[Max     =      1002.44, Total count    =         6000]
        #[Buckets =           56, SubBuckets     =          256]
        """ + "\n"

    /// Two intervals: 1 to 1,000 µs with three significant digits, then 5 and 7 ms tagged `login`.
    static let intervalLog =
        """
        #[Histogram log format version 1.3]
        #[StartTime: 1700000000.123 (seconds since epoch), Tue Nov 14 22:13:20 UTC 2023]
        #[BaseTime: 1700000000.123 (seconds since epoch)]
        "StartTimestamp","Interval_Length","Interval_Max","Interval_Compressed_Histogram"
        0.000,1.000,1.000,HISTFAAAAIZ42pNpmSzMwMB+mgECmKE0Y/1/CLD/ABE4z890lp9pKgfTU3amhSxMH5mhaDkT03dGLGglI1M1UyUenM1kDYS2YJI8WpdJmkkWCBEk/fn8TLxM3EAMgQgWdtHhKs/OxAqGzFAaFRIvOqp/6OtnZmJAgxgCuCDRCmlh5qjlo5aPDMsBG+ZDNQ==
        Tag=login,1.000,1.000,7.012,HISTFAAAACN42pNpmSzMwMDAygABTFCasf4/BNh/gAisV2AqZwIAzPALQA==
        """
}
