// swift-tools-version:6.0
import PackageDescription

let package = Package(
    name: "ResponseKit",
    platforms: [.macOS(.v13), .iOS(.v16), .tvOS(.v16), .watchOS(.v9)],
    products: [
        .library(name: "ResponseKit", targets: ["ResponseKit"]),
        .library(name: "ResponseKitTesting", targets: ["ResponseKitTesting"]),
        .executable(name: "ResponseKitDemo", targets: ["ResponseKitDemo"]),
    ],
    targets: [
        .target(name: "ResponseKit"),
        .target(name: "ResponseKitTesting", dependencies: ["ResponseKit"]),
        .executableTarget(
            name: "ResponseKitDemo",
            dependencies: ["ResponseKit"],
            path: "Examples/ResponseKitDemo"
        ),
        .testTarget(name: "ResponseKitTests", dependencies: ["ResponseKit", "ResponseKitTesting"]),
        .testTarget(name: "ResponseKitTestingTests", dependencies: ["ResponseKit", "ResponseKitTesting"]),
    ],
    swiftLanguageModes: [.v6]
)
