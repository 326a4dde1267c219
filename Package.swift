// swift-tools-version: 6.1
import PackageDescription

let package = Package(
    name: "swift-futures",
    platforms: [.macOS(.v15), .iOS(.v18), .tvOS(.v18), .watchOS(.v11), .visionOS(.v2)],
    products: [
        .library(name: "Futures", targets: ["Futures"]),
        .library(name: "FuturesNIO", targets: ["FuturesNIO"]),
        .library(name: "FuturesCombine", targets: ["FuturesCombine"]),
        .library(name: "FuturesLogging", targets: ["FuturesLogging"]),
        .library(name: "Bolts", targets: ["Bolts"]),
        .library(name: "FuturesServiceLifecycle", targets: ["FuturesServiceLifecycle"]),
        .library(name: "FuturesMetrics", targets: ["FuturesMetrics"]),
        .library(name: "FuturesTracing", targets: ["FuturesTracing"]),
        .library(name: "BoltsSwift", targets: ["BoltsSwift"]),
        .library(name: "BrightFutures", targets: ["BrightFutures"]),
        .library(name: "SimpleFutures", targets: ["SimpleFutures"]),
        .executable(name: "futures-tour", targets: ["futures-tour"]),
    ],
    // Opt-in interop, each behind a trait so that a client fetches nothing it does not use: the `Futures`
    // library has no dependencies; enable `NIO` for `FuturesNIO` (SwiftNIO) and `Combine` for
    // `FuturesCombine` (OpenCombine off Apple platforms), `Logging` for `FuturesLogging` (swift-log); enable
    // `ServiceContext` to carry the trace context (swift-service-context) through every chain, `Tracing` for
    // `FuturesTracing` (spans as long as a future), `Metrics` for `FuturesMetrics` (swift-metrics) and
    // `ServiceLifecycle` for `FuturesServiceLifecycle` (graceful shutdown). Nothing is enabled by default.
    traits: [
        .trait(name: "NIO", description: "FuturesNIO: EventLoopFuture interop (fetches swift-nio)."),
        .trait(
            name: "Combine",
            description: "FuturesCombine: Publisher interop (fetches OpenCombine, used off Apple platforms)."
        ),
        .trait(
            name: "Logging",
            description: "FuturesLogging: FuturesDiagnostics into a swift-log Logger (fetches swift-log)."
        ),
        .trait(
            name: "ServiceContext",
            description:
                "Trace context through every chain: callbacks run with the ServiceContext current where they were registered (fetches swift-service-context)."
        ),
        .trait(
            name: "Tracing",
            description:
                "FuturesTracing: spans that end when a future completes (fetches swift-distributed-tracing; enables ServiceContext).",
            enabledTraits: ["ServiceContext"]
        ),
        .trait(
            name: "Metrics",
            description:
                "FuturesMetrics: ConcurrencyLimiter and FuturesDiagnostics metrics (fetches swift-metrics)."
        ),
        .trait(
            name: "ServiceLifecycle",
            description:
                "FuturesServiceLifecycle: drain limiters and in-flight futures on graceful shutdown (fetches swift-service-lifecycle, with swift-log and swift-async-algorithms)."
        ),
        .default(enabledTraits: []),
    ],
    dependencies: [
        // Only the interop products depend on these, each under its trait (see `traits`).
        .package(url: "https://github.com/apple/swift-nio", from: "2.80.0"),
        .package(url: "https://github.com/OpenCombine/OpenCombine", from: "0.14.0"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
        // Under the `ServiceContext` trait only: the task-local trace context that callbacks carry.
        .package(url: "https://github.com/apple/swift-service-context", from: "1.5.1"),
        // Under the `Tracing` trait: `FuturesTracing` starts spans (`Tracing`). Test-only under the
        // `ServiceContext` trait: spans recorded in memory (`InMemoryTracing`) for the trace-context tests.
        // (swift-service-context itself depends on it for the `ServiceContext` type.)
        .package(url: "https://github.com/apple/swift-distributed-tracing", from: "1.7.3"),
        // Under the `Metrics` trait only: `FuturesMetrics` records through swift-metrics' API.
        .package(url: "https://github.com/apple/swift-metrics", from: "2.13.0"),
        // Under the `ServiceLifecycle` trait only: `FuturesServiceLifecycle` is a `Service` of a `ServiceGroup`.
        .package(url: "https://github.com/swift-server/swift-service-lifecycle", from: "2.13.0"),
        // Documentation only (`swift package generate-documentation`); adds nothing to any product.
        .package(url: "https://github.com/swiftlang/swift-docc-plugin", from: "1.4.0"),
        // Test-only: `TestClock` lets the time-based tests advance virtual time instead of sleeping.
        .package(url: "https://github.com/pointfreeco/swift-clocks", from: "1.0.6"),
        // Test-only: property-based tests (`propertyCheck`, generators) for the laws and the contract.
        .package(url: "https://github.com/x-sheep/swift-property-based", from: "2.0.1"),
    ],
    targets: [
        // Our own C helpers for `SpinLock` (futex wait/wake, a spin hint); not an external dependency.
        .target(name: "CFuturesShims"),
        .target(
            name: "Futures",
            dependencies: [
                "CFuturesShims",
                .product(
                    name: "ServiceContextModule",
                    package: "swift-service-context",
                    condition: .when(traits: ["ServiceContext"])
                ),
            ],
            swiftSettings: [.swiftLanguageMode(.v6)]
        ),
        .target(
            name: "FuturesNIO",
            dependencies: [
                "Futures",
                .product(name: "NIOCore", package: "swift-nio", condition: .when(traits: ["NIO"])),
            ],
            swiftSettings: [.swiftLanguageMode(.v6)]
        ),
        .target(
            name: "FuturesCombine",
            dependencies: [
                "Futures",
                .product(
                    name: "OpenCombine",
                    package: "OpenCombine",
                    condition: .when(platforms: [.linux, .windows, .android, .wasi], traits: ["Combine"])
                ),
            ],
            swiftSettings: [.swiftLanguageMode(.v6)]
        ),
        .target(
            name: "FuturesLogging",
            dependencies: [
                "Futures",
                .product(name: "Logging", package: "swift-log", condition: .when(traits: ["Logging"])),
            ],
            swiftSettings: [.swiftLanguageMode(.v6)]
        ),
        // Objective-C Bolts' API (`import Bolts`: `BFTask`, `BFTaskCompletionSource`, `BFExecutor`), a face over `Futures`.
        .target(
            name: "Bolts",
            dependencies: ["Futures"],
            swiftSettings: [.swiftLanguageMode(.v6)]
        ),
        .target(
            name: "FuturesServiceLifecycle",
            dependencies: [
                "Futures",
                .product(
                    name: "ServiceLifecycle", package: "swift-service-lifecycle",
                    condition: .when(traits: ["ServiceLifecycle"])),
                .product(name: "Logging", package: "swift-log", condition: .when(traits: ["ServiceLifecycle"])),
            ],
            swiftSettings: [.swiftLanguageMode(.v6)]
        ),
        .target(
            name: "FuturesMetrics",
            dependencies: [
                "Futures",
                .product(name: "CoreMetrics", package: "swift-metrics", condition: .when(traits: ["Metrics"])),
                .product(name: "Metrics", package: "swift-metrics", condition: .when(traits: ["Metrics"])),
            ],
            swiftSettings: [.swiftLanguageMode(.v6)]
        ),
        .target(
            name: "FuturesTracing",
            dependencies: [
                "Futures",
                .product(name: "Tracing", package: "swift-distributed-tracing", condition: .when(traits: ["Tracing"])),
            ],
            swiftSettings: [.swiftLanguageMode(.v6)]
        ),
        // Bolts-Swift's API (`import BoltsSwift`: `Task`, `TaskCompletionSource`, `Executor`), a face over `Futures`.
        .target(
            name: "BoltsSwift",
            dependencies: ["Futures"],
            swiftSettings: [.swiftLanguageMode(.v6)]
        ),
        // SimpleFutures' API (`import SimpleFutures`), a thin face over `Futures`.
        .target(
            name: "SimpleFutures",
            dependencies: ["Futures"],
            swiftSettings: [.swiftLanguageMode(.v6)]
        ),
        // BrightFutures' module name over the core: `import BrightFutures` keeps compiling unchanged.
        .target(
            name: "BrightFutures",
            dependencies: ["Futures"],
            swiftSettings: [.swiftLanguageMode(.v6)]
        ),
        // A small HTTP server on 127.0.0.1 for the tour and the tests; not a product, no dependencies.
        .target(
            name: "LoopbackHTTP",
            swiftSettings: [.swiftLanguageMode(.v6)]
        ),
        .executableTarget(
            name: "futures-tour",
            dependencies: ["Futures", "Bolts", "SimpleFutures", "LoopbackHTTP"],
            swiftSettings: [.swiftLanguageMode(.v6)]
        ),
        // Test support shared by the test targets (not a product: clients never build it).
        .target(
            name: "FuturesTestSupport",
            dependencies: ["Futures"],
            path: "Tests/FuturesTestSupport",
            swiftSettings: [.swiftLanguageMode(.v6)]
        ),
        .testTarget(
            name: "FuturesTests",
            dependencies: [
                "FuturesTestSupport",
                "Futures",
                // The guarantee suites run each clause on every face, Bolts' `BFTask` included.
                "Bolts",
                "LoopbackHTTP",
                .product(name: "Clocks", package: "swift-clocks"),
                .product(name: "PropertyBased", package: "swift-property-based"),
                // The trace-context tests (their file is guarded by `#if ServiceContext`).
                .product(
                    name: "Tracing",
                    package: "swift-distributed-tracing",
                    condition: .when(traits: ["ServiceContext"])
                ),
                .product(
                    name: "InMemoryTracing",
                    package: "swift-distributed-tracing",
                    condition: .when(traits: ["ServiceContext"])
                ),
            ],
            swiftSettings: [.swiftLanguageMode(.v6)]
        ),
        .testTarget(
            name: "BrightFuturesTests",
            dependencies: ["FuturesTestSupport", "BrightFutures"],
            swiftSettings: [.swiftLanguageMode(.v6)]
        ),
        .testTarget(
            name: "FuturesNIOTests",
            dependencies: [
                "FuturesNIO",
                .product(name: "NIOCore", package: "swift-nio", condition: .when(traits: ["NIO"])),
                .product(name: "NIOEmbedded", package: "swift-nio", condition: .when(traits: ["NIO"])),
                .product(name: "NIOPosix", package: "swift-nio", condition: .when(traits: ["NIO"])),
            ],
            swiftSettings: [.swiftLanguageMode(.v6)]
        ),
        .testTarget(
            name: "FuturesCombineTests",
            dependencies: [
                "FuturesCombine",
                .product(
                    name: "OpenCombine",
                    package: "OpenCombine",
                    condition: .when(platforms: [.linux, .windows, .android, .wasi], traits: ["Combine"])
                ),
            ],
            swiftSettings: [.swiftLanguageMode(.v6)]
        ),
        .testTarget(
            name: "FuturesLoggingTests",
            dependencies: [
                "FuturesLogging",
                .product(name: "Logging", package: "swift-log", condition: .when(traits: ["Logging"])),
                .product(name: "InMemoryLogging", package: "swift-log", condition: .when(traits: ["Logging"])),
            ],
            swiftSettings: [.swiftLanguageMode(.v6)]
        ),
        .testTarget(
            name: "BoltsTests",
            dependencies: [
                "FuturesTestSupport",
                "Bolts",
                "Futures",
                .product(name: "Clocks", package: "swift-clocks"),
                // The trace-context tests (their file is guarded by `#if ServiceContext`).
                .product(
                    name: "Tracing",
                    package: "swift-distributed-tracing",
                    condition: .when(traits: ["ServiceContext"])
                ),
                .product(
                    name: "InMemoryTracing",
                    package: "swift-distributed-tracing",
                    condition: .when(traits: ["ServiceContext"])
                ),
            ],
            swiftSettings: [.swiftLanguageMode(.v6)]
        ),
        .testTarget(
            name: "FuturesServiceLifecycleTests",
            dependencies: [
                "FuturesTestSupport",
                "FuturesServiceLifecycle",
                "Futures",
                // The end-to-end shutdown test: a job runner with metrics and spans against a loopback backend
                // (its file is guarded by `#if ServiceLifecycle && Metrics && Tracing`).
                "FuturesMetrics",
                "FuturesTracing",
                "LoopbackHTTP",
                .product(name: "Clocks", package: "swift-clocks"),
                .product(
                    name: "ServiceLifecycle", package: "swift-service-lifecycle",
                    condition: .when(traits: ["ServiceLifecycle"])),
                .product(
                    name: "ServiceLifecycleTestKit", package: "swift-service-lifecycle",
                    condition: .when(traits: ["ServiceLifecycle"])),
                .product(name: "Logging", package: "swift-log", condition: .when(traits: ["ServiceLifecycle"])),
                .product(name: "InMemoryLogging", package: "swift-log", condition: .when(traits: ["ServiceLifecycle"])),
                .product(name: "Metrics", package: "swift-metrics", condition: .when(traits: ["Metrics"])),
                .product(name: "MetricsTestKit", package: "swift-metrics", condition: .when(traits: ["Metrics"])),
                .product(name: "Tracing", package: "swift-distributed-tracing", condition: .when(traits: ["Tracing"])),
                .product(
                    name: "InMemoryTracing", package: "swift-distributed-tracing",
                    condition: .when(traits: ["Tracing"])),
            ],
            swiftSettings: [.swiftLanguageMode(.v6)]
        ),
        .testTarget(
            name: "FuturesMetricsTests",
            dependencies: [
                "FuturesTestSupport",
                "FuturesMetrics",
                "Futures",
                .product(name: "Clocks", package: "swift-clocks"),
                .product(name: "CoreMetrics", package: "swift-metrics", condition: .when(traits: ["Metrics"])),
                .product(name: "Metrics", package: "swift-metrics", condition: .when(traits: ["Metrics"])),
                .product(name: "MetricsTestKit", package: "swift-metrics", condition: .when(traits: ["Metrics"])),
            ],
            swiftSettings: [.swiftLanguageMode(.v6)]
        ),
        .testTarget(
            name: "FuturesTracingTests",
            dependencies: [
                "FuturesTestSupport",
                "FuturesTracing",
                "Futures",
                .product(name: "Clocks", package: "swift-clocks"),
                .product(name: "Tracing", package: "swift-distributed-tracing", condition: .when(traits: ["Tracing"])),
                .product(
                    name: "InMemoryTracing", package: "swift-distributed-tracing", condition: .when(traits: ["Tracing"])),
            ],
            swiftSettings: [.swiftLanguageMode(.v6)]
        ),
        .testTarget(
            name: "BoltsSwiftTests",
            dependencies: [
                "FuturesTestSupport", "BoltsSwift", "Futures", .product(name: "Clocks", package: "swift-clocks"),
            ],
            swiftSettings: [.swiftLanguageMode(.v6)]
        ),
        .testTarget(
            name: "SimpleFuturesTests",
            dependencies: ["FuturesTestSupport", "SimpleFutures", "Futures"],
            swiftSettings: [.swiftLanguageMode(.v6)]
        ),
        // Application-shaped code per face: small apps written the way each original's clients write them,
        // each importing only its face. Each app's directory is compiled twice, in the Swift 6 language mode
        // by `<Face>AppTests` and in Swift 5 by `<Face>AppSwift5Tests`, whose directory holds only a
        // symbolic link to it.
        .testTarget(
            name: "BrightFuturesAppTests",
            dependencies: ["FuturesTestSupport", "BrightFutures"],
            swiftSettings: [.swiftLanguageMode(.v6)]
        ),
        .testTarget(
            name: "BrightFuturesAppSwift5Tests",
            dependencies: ["FuturesTestSupport", "BrightFutures"],
            swiftSettings: [.swiftLanguageMode(.v5)]
        ),
        .testTarget(
            name: "SimpleFuturesAppTests",
            dependencies: ["FuturesTestSupport", "SimpleFutures"],
            swiftSettings: [.swiftLanguageMode(.v6)]
        ),
        .testTarget(
            name: "SimpleFuturesAppSwift5Tests",
            dependencies: ["FuturesTestSupport", "SimpleFutures"],
            swiftSettings: [.swiftLanguageMode(.v5)]
        ),
        .testTarget(
            name: "BoltsSwiftAppTests",
            dependencies: ["FuturesTestSupport", "BoltsSwift"],
            swiftSettings: [.swiftLanguageMode(.v6)]
        ),
        .testTarget(
            name: "BoltsSwiftAppSwift5Tests",
            dependencies: ["FuturesTestSupport", "BoltsSwift"],
            swiftSettings: [.swiftLanguageMode(.v5)]
        ),
    ]
)
