import Foundation

/// A line chart as inline SVG: axes with labelled ticks, one polyline per series, a legend. What
/// ``LoadReportPage`` draws its pictures with; no script and no external resource, so the page
/// opens offline and anywhere.
struct SVGChart {
    /// A series of points, in the chart's units.
    struct Series {
        let name: String
        let points: [(x: Double, y: Double)]
        let color: String
    }

    /// A tick: where on the axis, and its label.
    struct Tick {
        let value: Double
        let label: String
    }

    let title: String
    let xLabel: String
    let yLabel: String
    let xTicks: [Tick]
    let yTicks: [Tick]
    let xRange: ClosedRange<Double>
    let yRange: ClosedRange<Double>
    let series: [Series]

    static let width = 440.0
    static let height = 260.0
    private static let left = 64.0
    private static let right = 28.0
    private static let top = 28.0
    private static let bottom = 44.0

    /// The chart, as an `<svg>` element.
    var svg: String {
        let plotWidth = Self.width - Self.left - Self.right
        let plotHeight = Self.height - Self.top - Self.bottom
        func x(_ value: Double) -> Double {
            let span = xRange.upperBound - xRange.lowerBound
            return Self.left + (span > 0 ? (value - xRange.lowerBound) / span : 0) * plotWidth
        }
        func y(_ value: Double) -> Double {
            let span = yRange.upperBound - yRange.lowerBound
            return Self.top + plotHeight - (span > 0 ? (value - yRange.lowerBound) / span : 0) * plotHeight
        }
        var parts = [
            "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"\(Int(Self.width))\" height=\"\(Int(Self.height))\" "
                + "viewBox=\"0 0 \(Int(Self.width)) \(Int(Self.height))\" role=\"img\" aria-label=\"\(title.htmlEscaped)\">",
            "<text x=\"\(Self.left)\" y=\"16\" class=\"title\">\(title.htmlEscaped)</text>",
            "<rect x=\"\(Self.left)\" y=\"\(Self.top)\" width=\"\(plotWidth.svgNumber)\" height=\"\(plotHeight.svgNumber)\" class=\"plot\"/>",
        ]
        for tick in xTicks where xRange.contains(tick.value) {
            let position = x(tick.value).svgNumber
            parts.append(
                "<line x1=\"\(position)\" y1=\"\(Self.top)\" x2=\"\(position)\" y2=\"\((Self.top + plotHeight).svgNumber)\" class=\"grid\"/>"
            )
            parts.append(
                "<text x=\"\(position)\" y=\"\((Self.top + plotHeight + 14).svgNumber)\" class=\"tick\" text-anchor=\"middle\">\(tick.label.htmlEscaped)</text>"
            )
        }
        for tick in yTicks where yRange.contains(tick.value) {
            let position = y(tick.value).svgNumber
            parts.append(
                "<line x1=\"\(Self.left)\" y1=\"\(position)\" x2=\"\((Self.left + plotWidth).svgNumber)\" y2=\"\(position)\" class=\"grid\"/>"
            )
            parts.append(
                "<text x=\"\(Self.left - 4)\" y=\"\(position)\" class=\"tick\" text-anchor=\"end\" dominant-baseline=\"middle\">\(tick.label.htmlEscaped)</text>"
            )
        }
        parts.append(
            "<text x=\"\((Self.left + plotWidth / 2).svgNumber)\" y=\"\(Self.height - 6)\" class=\"axis\" text-anchor=\"middle\">\(xLabel.htmlEscaped)</text>"
        )
        parts.append(
            "<text x=\"12\" y=\"\((Self.top + plotHeight / 2).svgNumber)\" class=\"axis\" text-anchor=\"middle\" "
                + "transform=\"rotate(-90 12 \((Self.top + plotHeight / 2).svgNumber))\">\(yLabel.htmlEscaped)</text>")
        for (index, line) in series.enumerated() {
            let points = line.points.map {
                "\(x($0.x).svgNumber),\(y(min(max($0.y, yRange.lowerBound), yRange.upperBound)).svgNumber)"
            }
            if points.count == 1 {
                let point = line.points[0]
                parts.append(
                    "<circle cx=\"\(x(point.x).svgNumber)\" cy=\"\(y(point.y).svgNumber)\" r=\"3\" fill=\"\(line.color)\"/>"
                )
            } else if !points.isEmpty {
                parts.append(
                    "<polyline points=\"\(points.joined(separator: " "))\" fill=\"none\" stroke=\"\(line.color)\" stroke-width=\"2\"/>"
                )
            }
            let legendY = Self.top + 12 + Double(index) * 14
            parts.append(
                "<line x1=\"\((Self.left + 8).svgNumber)\" y1=\"\(legendY.svgNumber)\" x2=\"\((Self.left + 24).svgNumber)\" y2=\"\(legendY.svgNumber)\" stroke=\"\(line.color)\" stroke-width=\"2\"/>"
            )
            parts.append(
                "<text x=\"\((Self.left + 28).svgNumber)\" y=\"\(legendY.svgNumber)\" class=\"legend\" dominant-baseline=\"middle\">\(line.name.htmlEscaped)</text>"
            )
        }
        if series.allSatisfy({ $0.points.isEmpty }) {
            parts.append(
                "<text x=\"\((Self.left + plotWidth / 2).svgNumber)\" y=\"\((Self.top + plotHeight / 2).svgNumber)\" class=\"empty\" text-anchor=\"middle\">no samples</text>"
            )
        }
        parts.append("</svg>")
        return parts.joined(separator: "\n")
    }

    /// Round numbers for a linear axis from zero to at least `maximum`: 1, 2 or 5 times a power of
    /// ten apart, about five of them; labelled by `label`.
    static func linearTicks(upTo maximum: Double, label: (Double) -> String) -> (ticks: [Tick], top: Double) {
        let top = maximum > 0 && maximum.isFinite ? maximum : 1
        let rough = top / 5
        let magnitude = pow(10, floor(log10(rough)))
        let step = [1.0, 2, 5, 10].map { $0 * magnitude }.first { $0 >= rough } ?? 10 * magnitude
        let count = Int((top / step).rounded(.up))
        return (
            (0...count).map { Tick(value: Double($0) * step, label: label(Double($0) * step)) }, Double(count) * step
        )
    }
}

extension Double {
    /// At most two decimals, for SVG coordinates.
    var svgNumber: String {
        String(format: "%.2f", self)
    }
}

extension String {
    /// The text with `&`, `<`, `>` and `"` escaped, for HTML and SVG.
    var htmlEscaped: String {
        var escaped = ""
        escaped.reserveCapacity(utf8.count)
        for character in self {
            switch character {
            case "&": escaped += "&amp;"
            case "<": escaped += "&lt;"
            case ">": escaped += "&gt;"
            case "\"": escaped += "&quot;"
            default: escaped.append(character)
            }
        }
        return escaped
    }
}
