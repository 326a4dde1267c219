// swift-tools-version: 6.1
import PackageDescription

let package = Package(
    name: "swift-futures",
    platforms: [.macOS(.v15), .iOS(.v18), .tvOS(.v18), .watchOS(.v11), .visionOS(.v2)],
    products: [
        .library(name: "Futures", targets: ["Futures"]),
        .executable(name: "futures-tour", targets: ["futures-tour"]),
    ],
    dependencies: [
        // Test-only: `TestClock` lets the time-based tests advance virtual time instead of sleeping.
        .package(url: "https://github.com/pointfreeco/swift-clocks", from: "1.0.6")
    ],
    targets: [
        .target(
            name: "Futures",
            swiftSettings: [.swiftLanguageMode(.v6)]
        ),
        .executableTarget(
            name: "futures-tour",
            dependencies: ["Futures"],
            swiftSettings: [.swiftLanguageMode(.v6)]
        ),
        .testTarget(
            name: "FuturesTests",
            dependencies: ["Futures", .product(name: "Clocks", package: "swift-clocks")],
            swiftSettings: [.swiftLanguageMode(.v6)]
        ),
    ]
)
