import Foundation

/// The machine and build a run happened on, printed above the table and stored in the JSON.
struct Machine: Codable {
    let processor: String
    let cores: Int
    let memoryGigabytes: Double
    let operatingSystem: String
    let compiler: String
    let configuration: String

    static func current() -> Machine {
        let info = ProcessInfo.processInfo
        return Machine(
            processor: processorName() ?? "unknown processor",
            cores: info.activeProcessorCount,
            memoryGigabytes: (Double(info.physicalMemory) / 1_073_741_824 * 10).rounded() / 10,
            operatingSystem: info.operatingSystemVersionString,
            compiler: compilerVersion,
            configuration: isDebugBuild ? "debug" : "release"
        )
    }

    var description: String {
        "\(processor), \(cores) cores, \(memoryGigabytes) GB, \(operatingSystem), \(compiler), \(configuration)"
    }

    static var isDebugBuild: Bool {
        #if DEBUG
        return true
        #else
        return false
        #endif
    }

    private static var compilerVersion: String {
        #if compiler(>=6.3)
        return "Swift 6.3 or later"
        #elseif compiler(>=6.2)
        return "Swift 6.2"
        #elseif compiler(>=6.1)
        return "Swift 6.1"
        #else
        return "Swift 6.0"
        #endif
    }

    /// The first `model name` of `/proc/cpuinfo` on Linux.
    private static func processorName() -> String? {
        guard let cpuinfo = try? String(contentsOfFile: "/proc/cpuinfo", encoding: .utf8) else { return nil }
        let line = cpuinfo.split(separator: "\n").first { $0.hasPrefix("model name") }
        return line?.split(separator: ":", maxSplits: 1).last?.trimmingCharacters(in: .whitespaces)
    }
}
