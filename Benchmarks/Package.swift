// swift-tools-version: 6.1
// Benchmarks for swift-futures, side by side with SwiftNIO, OpenCombine, async/await and Dispatch.
// A separate package so that the library's own build and CI stay light. Run with `./run.sh` or
// `swift package benchmark --filter W1` from this folder.
import PackageDescription

// `FUTURES_TRAITS=ServiceContext swift package benchmark …` (or `FUTURES_TRAITS=ServiceContext ./run.sh …`) builds
// the library with those package traits (comma-separated), e.g. to measure the trace context's cost; unset, the
// library is built with none, as a client that enables nothing gets it.
let futuresTraits = Set(
    (Context.environment["FUTURES_TRAITS"] ?? "").split(separator: ",").map {
        Package.Dependency.Trait(name: String($0))
    })

let package = Package(
    name: "FuturesBenchmarks",
    platforms: [.macOS(.v15)],
    dependencies: [
        .package(name: "swift-futures", path: "..", traits: futuresTraits.isEmpty ? [.defaults] : futuresTraits),
        .package(url: "https://github.com/ordo-one/benchmark", from: "1.38.1", traits: ["MallocInterposer"]),
        .package(url: "https://github.com/apple/swift-nio", from: "2.80.0"),
        .package(url: "https://github.com/OpenCombine/OpenCombine", from: "0.14.0"),
    ],
    targets: [
        // The naive reference future of issue 10 (one Mutex, an array of closures), without dependencies,
        // so that the profiling driver can use it too.
        .target(
            name: "NaiveReference",
            path: "Benchmarks/NaiveReference",
            swiftSettings: [.swiftLanguageMode(.v6)]
        ),
        // The Futures side of every workload, shared by both executables.
        .target(
            name: "FuturesWorkloads",
            dependencies: [
                .product(name: "Futures", package: "swift-futures"),
                .product(name: "Bolts", package: "swift-futures"),
                .product(name: "SimpleFutures", package: "swift-futures"),
                .product(name: "BoltsSwift", package: "swift-futures"),
                .product(name: "Benchmark", package: "benchmark"),
            ],
            path: "Benchmarks/FuturesWorkloads",
            swiftSettings: [.swiftLanguageMode(.v6)]
        ),
        // Every workload for every library, side by side (`./run.sh`).
        .executableTarget(
            name: "FuturesBenchmarks",
            dependencies: [
                "FuturesWorkloads",
                "NaiveReference",
                .product(name: "Futures", package: "swift-futures"),
                .product(name: "BoltsSwift", package: "swift-futures"),
                .product(name: "SimpleFutures", package: "swift-futures"),
                .product(name: "BrightFutures", package: "swift-futures"),
                .product(name: "Benchmark", package: "benchmark"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOEmbedded", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "OpenCombine", package: "OpenCombine"),
                .product(name: "OpenCombineDispatch", package: "OpenCombine"),
            ],
            path: "Benchmarks/FuturesBenchmarks",
            swiftSettings: [.swiftLanguageMode(.v6)],
            plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]
        ),
        // The Futures workloads alone, for the allocation gate (no SwiftNIO or OpenCombine to build).
        .executableTarget(
            name: "FuturesAllocations",
            dependencies: [
                "FuturesWorkloads",
                .product(name: "Benchmark", package: "benchmark"),
            ],
            path: "Benchmarks/FuturesAllocations",
            swiftSettings: [.swiftLanguageMode(.v6)],
            plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]
        ),
        // Soak: 10,000,000 operations from 4 threads, memory must stay flat (BENCHMARKS.md, "Soak"). Its own
        // target, so that neither the allocation gate nor `run.sh` runs it.
        .executableTarget(
            name: "FuturesSoak",
            dependencies: [
                "FuturesWorkloads",
                .product(name: "Futures", package: "swift-futures"),
                .product(name: "Benchmark", package: "benchmark"),
            ],
            path: "Benchmarks/FuturesSoak",
            swiftSettings: [.swiftLanguageMode(.v6)],
            plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]
        ),
        // A plain driver for profilers (callgrind, perf), without the harness: see its main.swift. It lives
        // outside `Benchmarks/`, where the benchmark plugin would take it for a benchmark target.
        .executableTarget(
            name: "FuturesProfile",
            dependencies: [
                "NaiveReference",
                .product(name: "Futures", package: "swift-futures"),
                .product(name: "SimpleFutures", package: "swift-futures"),
                .product(name: "Bolts", package: "swift-futures"),
                .product(name: "BoltsSwift", package: "swift-futures"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOEmbedded", package: "swift-nio"),
            ],
            path: "Profile/FuturesProfile",
            swiftSettings: [.swiftLanguageMode(.v6)]
        ),
    ]
)
