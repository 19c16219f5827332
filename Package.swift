// swift-tools-version:6.0
import PackageDescription

let package = Package(
    name: "ResponseKit",
    // The Swift concurrency floor: the response's state word uses C11 atomics of our own
    // (CResponseKit), not Synchronization, which would need macOS 15 / iOS 18.
    platforms: [.macOS(.v10_15), .iOS(.v13), .tvOS(.v13), .watchOS(.v6), .visionOS(.v1)],
    products: [
        .library(name: "ResponseKit", targets: ["ResponseKit"]),
        .library(name: "ResponseKitTesting", targets: ["ResponseKitTesting"]),
        .library(name: "ResponseKitServices", targets: ["ResponseKitServices"]),
        .library(name: "ResponseKitLoad", targets: ["ResponseKitLoad"]),
        // Only the libraries: a package that depends on ResponseKit sees nothing else. The demo,
        // the benchmarks and the stress run stay runnable here with `swift run <target>`.
    ],
    targets: [
        // The engine: Response, Resolver, executors, composition, diagnostics.
        .target(name: "ResponseKit", dependencies: ["CResponseKit"]),
        // The engine's atomics, lock and main-thread test, in C11 (not a dependency: ours).
        .target(name: "CResponseKit"),
        // Test support for users and for our own tests: the response checks, ManualExecutor,
        // ManualScheduler, Recorder.
        .target(name: "ResponseKitTesting", dependencies: ["ResponseKit"]),
        // LSService-style services that live for the whole app, and the process runner.
        .target(name: "ResponseKitServices", dependencies: ["ResponseKit", "CResponseKitServices"]),
        // ServiceRunner's signal handler and self-pipe, in C: a signal handler must be async-signal-safe.
        .target(name: "CResponseKitServices"),
        // A load driver for your own interactors: closed or open loop, latency percentiles. A
        // product of its own, not part of ResponseKitTesting, because that one links XCTest and
        // Testing, which an executable that runs a load (a server, a tool) must not need.
        .target(name: "ResponseKitLoad", dependencies: ["ResponseKit"]),

        .executableTarget(
            name: "ResponseKitDemo",
            dependencies: ["ResponseKit", "ResponseKitServices", "ResponseKitDemoCore", "ExampleSupport"],
            path: "Examples/ResponseKitDemo"
        ),
        // A tiny process the services tests start, signal and watch exit.
        .executableTarget(
            name: "ServiceRunnerFixture",
            dependencies: ["ResponseKit", "ResponseKitServices", "ResponseKitDemoCore"],
            path: "Tests/Fixtures/ServiceRunnerFixture"
        ),
        .executableTarget(
            name: "ResponseBenchmarks",
            // ResponseKitDemoLoadCore: `ResponseBenchmarks load …`, the demo under the load driver.
            dependencies: ["ResponseKit", "CAllocationCounter", "ResponseKitDemoLoadCore"],
            path: "Benchmarks/ResponseBenchmarks"
        ),
        // Counts the benchmark process's heap allocations (it defines malloc and kin on Linux),
        // for the allocation figures and the budgets CI checks. Linked into the benchmarks only.
        .target(name: "CAllocationCounter", path: "Benchmarks/CAllocationCounter"),
        // Exactly-once under races, counted in release: `swift run -c release ResponseStress`.
        .executableTarget(
            name: "ResponseStress",
            dependencies: ["ResponseKit"],
            path: "Benchmarks/ResponseStress"
        ),
        // Random programs from a seed, checked against the documented rules by a model:
        // `swift run -c release ResponseChecker --seconds 60` (issue 37).
        .executableTarget(
            name: "ResponseChecker",
            dependencies: ["ResponseKit", "ResponseKitTesting"],
            path: "Benchmarks/ResponseChecker"
        ),

        // A command-line program the engine's tests run as a child process (what happens at exit).
        .executableTarget(
            name: "ResponseKitFixture",
            dependencies: ["ResponseKit"],
            path: "Tests/Fixtures/ResponseKitFixture"
        ),
        // Runs an executable of this package and waits for it: for the test targets that check
        // what only a whole process shows. Not a product.
        .target(name: "ExecutableRun", path: "Tests/Support/ExecutableRun"),
        // The tests' fixed pseudo-random sequence, shared by the test targets that need one.
        .target(name: "SeededRandom", path: "Tests/Support/SeededRandom"),
        .testTarget(
            name: "ResponseKitTests",
            dependencies: ["ResponseKit", "ResponseKitTesting", "ResponseKitFixture", "ExecutableRun", "SeededRandom"]
        ),
        .testTarget(name: "ResponseKitTestingTests", dependencies: ["ResponseKit", "ResponseKitTesting"]),
        .testTarget(
            name: "ResponseKitLoadTests",
            dependencies: ["ResponseKit", "ResponseKitLoad", "ResponseKitTesting", "SeededRandom"]
        ),
        .testTarget(
            name: "ResponseKitServicesTests",
            dependencies: ["ResponseKit", "ResponseKitTesting", "ResponseKitServices", "ServiceRunnerFixture"]
        ),
    ],
    swiftLanguageModes: [.v6]
)

// MARK: - Examples
//
// Each example is a library of its layers (`<Name>Core`), a thin executable (`<Name>`) that wires
// them to the command line, and tests of its interactors and presenters (`<Name>Tests`), all under
// Examples/<Name>. They depend on ResponseKit's products, like any app would, and use only their
// public API (ExampleSupport's `Locked`, an NSLock, where they need a lock), so that their code can
// be copied into an app.

/// The targets of one example under `Examples/<name>`.
func example(_ name: String, dependencies: [Target.Dependency] = []) -> [Target] {
    let core = Target.Dependency(stringLiteral: "\(name)Core")
    return [
        .target(
            name: "\(name)Core",
            dependencies: ["ResponseKit", "ExampleSupport"] + dependencies,
            path: "Examples/\(name)/Sources/\(name)Core"
        ),
        .executableTarget(
            name: name,
            dependencies: [core, "ResponseKit", "ExampleSupport"] + dependencies,
            path: "Examples/\(name)/Sources/\(name)"
        ),
        .testTarget(
            name: "\(name)Tests",
            dependencies: [core, "ResponseKit", "ResponseKitTesting", "ExampleSupport"] + dependencies,
            path: "Examples/\(name)/Tests/\(name)Tests"
        ),
    ]
}

package.targets += [
    // What the examples share: the command-line delivery mechanism (line input, output, command
    // loop) and safe file writes for their gateways.
    .target(
        name: "ExampleSupport", dependencies: ["ResponseKit"], path: "Examples/ExampleSupport/Sources/ExampleSupport"),
    .testTarget(
        name: "ExampleSupportTests",
        dependencies: ["ExampleSupport", "ResponseKit", "ResponseKitTesting", "ResponseKitLoad", "ExecutableRun"],
        path: "Examples/ExampleSupport/Tests/ExampleSupportTests"
    ),
]
package.targets += example("RegisterActivation")
package.targets += example("SignIn")
package.targets += example("Cities")
package.targets += example("Authentication")
package.targets += example("CleanSwiftScene")
// The demo's interactors under the load driver: `swift run -c release ResponseKitDemoLoad signin`.
package.targets += example(
    "ResponseKitDemoLoad",
    dependencies: ["ResponseKitLoad", "ResponseKitDemoCore", "SignInCore", "CitiesCore", "AuthenticationCore"]
)

// The demo app behind `swift run ResponseKitDemo` brings the examples together: its layers live in
// ResponseKitDemoCore (the executable target's own folder, Examples/ResponseKitDemo, holds only
// main.swift).
package.targets += [
    .target(
        name: "ResponseKitDemoCore",
        dependencies: [
            "ResponseKit", "ResponseKitServices", "ExampleSupport", "SignInCore", "CitiesCore", "AuthenticationCore",
        ],
        path: "Examples/ResponseKitDemoCore"
    ),
    .testTarget(
        name: "ResponseKitDemoTests",
        dependencies: [
            "ResponseKitDemoCore", "ResponseKit", "ResponseKitServices", "ResponseKitTesting", "ExampleSupport",
            "SignInCore", "CitiesCore", "AuthenticationCore",
        ],
        path: "Examples/ResponseKitDemoTests"
    ),
]

// MARK: - The examples as a new Xcode 26 app target compiles them
//
// With RESPONSEKIT_EXAMPLES_ISOLATION=MainActor in the environment, every target under Examples/
// is compiled with main-actor isolation by default (SE-0466) and the upcoming features
// NonisolatedNonsendingByDefault and InferIsolatedConformances, the settings of a new app target
// in Xcode 26; CI builds and tests the examples so, in a scratch path of its own. Flags rather than
// `.defaultIsolation(MainActor.self)`, which needs swift-tools-version 6.2: this manifest stays at
// 6.0 so that packages on Swift 6.0 and 6.1 can depend on ResponseKit. Such a package never
// builds an example target, so it never compiles with these flags, whatever its environment says.
if Context.environment["RESPONSEKIT_EXAMPLES_ISOLATION"] == "MainActor" {
    let mainActorByDefault: [SwiftSetting] = [
        .unsafeFlags(["-default-isolation", "MainActor"]),
        .enableUpcomingFeature("NonisolatedNonsendingByDefault"),
        .enableUpcomingFeature("InferIsolatedConformances"),
    ]
    for target in package.targets where target.path?.hasPrefix("Examples/") == true {
        target.swiftSettings = (target.swiftSettings ?? []) + mainActorByDefault
    }
}
