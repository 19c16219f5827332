// ResponseChecker: random programs over ResponseKit, checked against its documented rules.
//
// Each program builds pending responses and compositions of them, then races resolutions,
// cancellations, dropped resolvers, callbacks, blocking reads, awaits, moves of a manual clock
// and drains of a manual executor on real threads; a model checks every outcome (Model.swift).
// A failing program prints its seed, the program and the broken rule, then a shrunk version.
// See CONTRIBUTING.md.
//
//     swift run -c release --scratch-path .build-checker ResponseChecker --seconds 45
//     swift run -c release --scratch-path .build-checker ResponseChecker --seed 7 --programs 20000
//     swift run -c release --scratch-path .build-checker ResponseChecker --replay <program seed>

import Dispatch
import Foundation

guard let options = Options.parse(Array(CommandLine.arguments.dropFirst())) else {
    report(Options.usage)
    exit(64)
}

// The programs run on a thread of their own; the main thread serves the main queue, as a
// server's does, so that `.main` and main-actor callbacks are delivered while a program runs.
let controller = Thread { exit(Checker.run(options)) }
controller.stackSize = 8 << 20
controller.start()
dispatchMain()
