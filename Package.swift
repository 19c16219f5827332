// swift-tools-version:6.0
import PackageDescription

let package = Package(
    name: "ResponseKit",
    platforms: [.macOS(.v13), .iOS(.v16), .tvOS(.v16), .watchOS(.v9)],
    products: [
        .library(name: "ResponseKit", targets: ["ResponseKit"]),
        .library(name: "ResponseKitTesting", targets: ["ResponseKitTesting"]),
        .library(name: "ResponseKitServices", targets: ["ResponseKitServices"]),
        .executable(name: "ResponseKitDemo", targets: ["ResponseKitDemo"]),
        .executable(name: "ResponseBenchmarks", targets: ["ResponseBenchmarks"]),
    ],
    targets: [
        // The engine: Response, Resolver, executors, composition, diagnostics.
        .target(name: "ResponseKit"),
        // Test support for users and for our own tests: ManualExecutor, Recorder, ManualClock.
        .target(name: "ResponseKitTesting", dependencies: ["ResponseKit"]),
        // LSService-style services that live for the whole app, and the process runner.
        .target(name: "ResponseKitServices", dependencies: ["ResponseKit"]),

        .executableTarget(
            name: "ResponseKitDemo",
            dependencies: ["ResponseKit", "ResponseKitServices"],
            path: "Examples/ResponseKitDemo"
        ),
        // A tiny process the services tests start, signal and watch exit.
        .executableTarget(
            name: "ServiceRunnerFixture",
            dependencies: ["ResponseKit", "ResponseKitServices"],
            path: "Tests/Fixtures/ServiceRunnerFixture"
        ),
        .executableTarget(
            name: "ResponseBenchmarks",
            dependencies: ["ResponseKit"],
            path: "Benchmarks/ResponseBenchmarks"
        ),

        .testTarget(name: "ResponseKitTests", dependencies: ["ResponseKit", "ResponseKitTesting"]),
        .testTarget(name: "ResponseKitTestingTests", dependencies: ["ResponseKit", "ResponseKitTesting"]),
        .testTarget(
            name: "ResponseKitServicesTests",
            dependencies: ["ResponseKit", "ResponseKitTesting", "ResponseKitServices", "ServiceRunnerFixture"]
        ),
    ],
    swiftLanguageModes: [.v6]
)
