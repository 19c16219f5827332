import Foundation

/// The human-readable report: Markdown tables, readable in a terminal and pasteable into a README.
///
/// The first table puts each ResponseKit figure next to its floor, with the ratio and the target;
/// the second lists every variant (floors by name, Swift concurrency alternatives) with its ratio
/// to the floor and, for timed workloads, its rate per second.
struct TableReport {
    let run: RunReport

    var text: String {
        var lines = [header, ""]
        lines += comparisonTable
        lines += ["", "All variants (ratio to the floor of the same workload):", ""]
        lines += variantsTable
        let notes = run.results.compactMap { result in result.missingNote.map { "- \(result.id): \($0)" } }
        if !notes.isEmpty {
            lines += ["", "Not measured yet:"] + notes
        }
        return lines.joined(separator: "\n")
    }

    private var header: String {
        let what =
            run.isSmoke
            ? "smoke run: each workload once at a tiny size; the figures mean nothing"
            : "median (min–max) of the repetitions shown; ratios are ResponseKit ÷ floor from this run"
        return "ResponseKit benchmarks · \(run.date) · \(run.machine.description)\n\(what)"
    }

    private var comparisonTable: [String] {
        var rows = [
            [
                "ID", "Workload", "Unit", "ResponseKit", "Floor", "Ratio", "Target", "Met",
                "Allocs/op (RK · floor · budget)",
            ]
        ]
        for result in run.results {
            rows.append([
                result.id,
                result.title,
                result.unit.rawValue,
                result.responseKit.map { Self.figure($0.summary) } ?? "—",
                Self.figure(result.floor.summary),
                result.ratio.map(Self.ratio) ?? "—",
                result.target.map { Self.target($0, unit: result.unit) } ?? "—",
                result.isTargetMet.map { $0 ? "yes" : "**no**" } ?? "—",
                Self.allocations(result),
            ])
        }
        return Self.markdown(rows, rightAligned: [3, 4, 5, 8])
    }

    private var variantsTable: [String] {
        var rows = [["ID", "Variant", "Unit", "Median (min–max)", "Ratio to floor", "Per second", "Allocs/op", "Reps"]]
        for result in run.results {
            for figures in result.figures {
                let role =
                    switch figures.role {
                    case .responseKit: ""
                    case .floor: "floor: "
                    case .alternative: "alt: "
                    }
                rows.append([
                    result.id,
                    role + figures.variant,
                    result.unit.rawValue,
                    Self.figure(figures.summary),
                    figures.ratioToFloor.map(Self.ratio) ?? "—",
                    figures.perSecond.map(Self.rate) ?? "—",
                    figures.allocationsPerOperation.map(Self.allocationCount) ?? "—",
                    "\(result.repetitions)×\(figures.operations)",
                ])
            }
        }
        return Self.markdown(rows, rightAligned: [3, 4, 5, 6, 7])
    }

    // MARK: - Formatting

    static func figure(_ summary: Summary) -> String {
        "\(number(summary.median)) (\(number(summary.minimum))–\(number(summary.maximum)))"
    }

    static func number(_ value: Double) -> String {
        switch abs(value) {
        case 1000...: grouped(Int(value.rounded()))
        case 100...: String(format: "%.0f", value)
        case 10...: String(format: "%.1f", value)
        default: String(format: "%.2f", value)
        }
    }

    static func allocationCount(_ value: Double) -> String {
        String(format: "%.2f", value)
    }

    /// ResponseKit's allocations per operation, the floor's, and the budget (marked when over).
    static func allocations(_ result: WorkloadResult) -> String {
        guard let counted = result.responseKit?.allocationsPerOperation else { return "—" }
        let floor = result.floor.allocationsPerOperation.map(allocationCount) ?? "—"
        let budget = result.allocationBudget.map { String(format: "%.0f", $0) } ?? "—"
        let over = result.isWithinAllocationBudget == false ? " **over**" : ""
        return "\(allocationCount(counted)) · \(floor) · \(budget)\(over)"
    }

    static func ratio(_ value: Double) -> String {
        String(format: "%.2f×", value)
    }

    static func rate(_ perSecond: Double) -> String {
        switch perSecond {
        case 1e6...: String(format: "%.2f M/s", perSecond / 1e6)
        case 1e3...: String(format: "%.1f k/s", perSecond / 1e3)
        default: String(format: "%.0f /s", perSecond)
        }
    }

    static func target(_ target: Target, unit: Unit) -> String {
        switch target.kind {
        // Two decimals only where the target has them (W9's 1.15×), so that it is not shown rounded.
        case .ratio:
            (target.value * 10).rounded() == target.value * 10
                ? String(format: "≤ %.1f×", target.value) : String(format: "≤ %.2f×", target.value)
        case .atMost: "≤ \(number(target.value)) \(unit.rawValue)"
        }
    }

    private static func grouped(_ value: Int) -> String {
        let digits = String(abs(value))
        var result = ""
        for (index, digit) in digits.enumerated() {
            if index > 0, (digits.count - index).isMultiple(of: 3) { result.append(",") }
            result.append(digit)
        }
        return value < 0 ? "-" + result : result
    }

    /// Pads the cells so that the table lines up in a terminal too.
    private static func markdown(_ rows: [[String]], rightAligned: Set<Int>) -> [String] {
        let widths = rows[0].indices.map { column in rows.map { $0[column].count }.max() ?? 0 }
        func line(_ cells: [String]) -> String {
            let padded = cells.enumerated().map { column, cell in
                let padding = String(repeating: " ", count: widths[column] - cell.count)
                return rightAligned.contains(column) ? padding + cell : cell + padding
            }
            return "| " + padded.joined(separator: " | ") + " |"
        }
        let rule = widths.indices.map { column in
            let dashes = String(repeating: "-", count: max(widths[column], 3))
            return rightAligned.contains(column) ? String(dashes.dropLast()) + ":" : dashes
        }
        return [line(rows[0]), "| " + rule.joined(separator: " | ") + " |"] + rows.dropFirst().map(line)
    }
}
