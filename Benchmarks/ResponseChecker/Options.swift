import Foundation

/// The command line: `--seed N`, `--programs K`, `--seconds S`, `--replay SEED [--runs R]`.
struct Options {
    var seed = UInt64(Date().timeIntervalSince1970)
    var programs: Int?
    var seconds: Double?
    var replay: UInt64?
    /// Runs of the replayed program: a race may need many to show.
    var runs = 200
    /// Failing programs to shrink in one run (each takes a while).
    var shrinks = 3

    static let usage = """
        usage: ResponseChecker [--seed N] [--programs K | --seconds S] [--shrinks N]
               ResponseChecker --replay SEED [--runs R]
        Runs random response programs from a seed and checks each against the documented rules.
        """

    static func parse(_ arguments: [String]) -> Options? {
        var options = Options()
        var rest = arguments[...]
        while let flag = rest.popFirst() {
            guard let text = rest.popFirst() else { return nil }
            switch flag {
            case "--seed":
                guard let value = UInt64(text) else { return nil }
                options.seed = value
            case "--programs":
                guard let value = Int(text) else { return nil }
                options.programs = value
            case "--seconds":
                guard let value = Double(text) else { return nil }
                options.seconds = value
            case "--replay":
                guard let value = UInt64(text) else { return nil }
                options.replay = value
            case "--runs":
                guard let value = Int(text) else { return nil }
                options.runs = value
            case "--shrinks":
                guard let value = Int(text) else { return nil }
                options.shrinks = value
            default: return nil
            }
        }
        if options.programs == nil && options.seconds == nil { options.programs = 1000 }
        return options
    }
}
