// swift-tools-version:6.0
import PackageDescription

// The core is optimized in debug builds too, its assertions kept (`-assert-config Debug`) and
// its `#if DEBUG` invariant checks on: unoptimized, its generic containers spend most of their
// time instantiating metadata, and the seeded differential tests took most of the test suite's
// CPU time. Everything else in a debug build stays unoptimized.
let coreDebugSettings: [SwiftSetting] = [.unsafeFlags(["-O", "-assert-config", "Debug"], .when(configuration: .debug))]

let package = Package(
    name: "ScrollStackServer",
    platforms: [.macOS(.v15)],
    products: [
        .executable(name: "scrollstackd", targets: ["scrollstackd"]),
        .library(name: "ScrollStackCore", targets: ["ScrollStackCore"]),
        // For the fuzz targets' package (Fuzz/Package.swift) only.
        .library(name: "JSONCodec", targets: ["JSONCodec"]),
        .library(name: "MicroHTTP", targets: ["MicroHTTP"]),
        .library(name: "ScrollStackService", targets: ["ScrollStackService"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
        .package(url: "https://github.com/apple/swift-numerics", from: "1.1.1"),
        .package(url: "https://github.com/apple/swift-metrics", from: "2.13.0"),
        .package(url: "https://github.com/swift-server/swift-prometheus", from: "2.4.1"),
    ],
    targets: [
        // The model and layout engine: pure Swift, no C, JSON or HTTP.
        .target(name: "ScrollStackCore", swiftSettings: coreDebugSettings),

        // Carousels beside the core: page stops, settling, the page indicator and the paging
        // menu, computed from the stack's settings (pure Swift; the core knows only the data).
        .target(name: "ScrollStackPaging", dependencies: ["ScrollStackCore", .product(name: "RealModule", package: "swift-numerics")]),
        // Transition plans (row changes and piles) and spring sampling: pure Swift, beside the core.
        .target(name: "ScrollStackTransitions", dependencies: ["ScrollStackCore"]),
        .target(name: "ScrollStackPiles", dependencies: ["ScrollStackTransitions", "ScrollStackCore"]),

        // System libraries, found with pkg-config.
        .systemLibrary(
            name: "CJansson",
            pkgConfig: "jansson",
            providers: [.apt(["libjansson-dev"])]
        ),
        .systemLibrary(
            name: "CSQLite",
            pkgConfig: "sqlite3",
            providers: [.apt(["libsqlite3-dev"])]
        ),
        .systemLibrary(
            name: "CZlib",
            pkgConfig: "zlib",
            providers: [.apt(["zlib1g-dev"])]
        ),
        .systemLibrary(
            name: "CMicroHTTPD",
            pkgConfig: "libmicrohttpd",
            providers: [.apt(["libmicrohttpd-dev"])]
        ),

        .systemLibrary(name: "CHarfBuzz", pkgConfig: "harfbuzz", providers: [.apt(["libharfbuzz-dev"])]),
        .systemLibrary(name: "CFreeType", pkgConfig: "freetype2", providers: [.apt(["libfreetype-dev"])]),
        .systemLibrary(name: "CICU", pkgConfig: "icu-uc", providers: [.apt(["libicu-dev"])]),
        .systemLibrary(name: "CPostgres", pkgConfig: "libpq", providers: [.apt(["libpq-dev"])]),
        .systemLibrary(name: "CCairo", pkgConfig: "cairo-ft", providers: [.apt(["libcairo2-dev", "libpixman-1-dev"])]),

        // Thin Swift layers over the C libraries; they know nothing of stacks.
        .target(name: "JSONCodec", dependencies: ["CJansson"]),
        .target(name: "MicroHTTP", dependencies: ["CMicroHTTPD"]),
        .target(name: "SQLite", dependencies: ["CSQLite"]),
        .target(name: "Zlib", dependencies: ["CZlib"]),
        .target(name: "Postgres", dependencies: ["CPostgres"]),

        // The store: journals of opaque records behind `JournalBackend` (SQLite embedded);
        // it knows nothing of HTTP or of stacks.
        .target(name: "ScrollStackStore", dependencies: ["SQLite"]),
        // The shared backend for replicas: every journal in PostgreSQL (`--store postgres://…`).
        .target(name: "ScrollStackPostgres", dependencies: ["ScrollStackStore", "Postgres"]),

        // The text engine: fonts (FreeType), shaping (HarfBuzz), line breaking (ICU), behind
        // the core's TextMeasuring protocol.
        .target(name: "ScrollStackText", dependencies: ["ScrollStackCore", "CHarfBuzz", "CFreeType", "CICU"]),

        // Pictures: scenes (rectangles, circles, glyph runs) drawn to PNG with Cairo (glyphs
        // through cairo-ft from the faces the text engine shaped with), and glyph outlines
        // for SVG; it knows nothing of HTTP.
        .target(name: "ScrollStackRender", dependencies: ["ScrollStackCore", "ScrollStackText", "CCairo", "Zlib"]),

        // The service: routes, request decoding, response encoding, the stack store.
        .target(
            name: "ScrollStackService",
            dependencies: [
                "ScrollStackCore", "ScrollStackPaging", "ScrollStackTransitions", "ScrollStackPiles", "ScrollStackText", "ScrollStackRender", "JSONCodec", "MicroHTTP", "ScrollStackStore", "Zlib",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "CoreMetrics", package: "swift-metrics"),
                .product(name: "Prometheus", package: "swift-prometheus"),
            ]
        ),

        // The executable: options, logging, signals.
        .executableTarget(
            name: "scrollstackd",
            dependencies: [
                "ScrollStackService", "ScrollStackStore", "ScrollStackPostgres", "Postgres", "ScrollStackText", "MicroHTTP",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),

        // Per-operation costs of the model at growing sizes (a program, not a test).
        .executableTarget(name: "core-benchmark", dependencies: ["ScrollStackCore"], path: "Benchmarks/CoreBenchmark"),
        // What a transition plan costs at growing stack sizes, against two full layouts.
        .executableTarget(name: "transitions-benchmark", dependencies: ["ScrollStackCore", "ScrollStackTransitions"],
                          path: "Benchmarks/TransitionsBenchmark"),
        // Measuring a 100,000-row stack of text rows, cold and with the shape cache warm.
        .executableTarget(name: "text-benchmark", dependencies: ["ScrollStackCore", "ScrollStackText"], path: "Benchmarks/TextBenchmark"),
        // What recording metrics adds to a request at the service's edge (ns of CPU, metrics off and on).
        .executableTarget(name: "metrics-benchmark", dependencies: ["ScrollStackService", "MicroHTTP", "JSONCodec"], path: "Benchmarks/MetricsBenchmark"),

        // A small blocking HTTP/1.1 client over POSIX sockets, for the end-to-end tests only.
        .target(name: "TestHTTPClient", path: "Tests/TestHTTPClient"),
        // The one seed of the seeded random tests (a fixed default, SCROLLSTACK_SEED overrides it).
        .target(name: "TestSeeds", path: "Tests/TestSeeds"),
        // A throwaway PostgreSQL cluster on loopback (initdb, pg_ctl as an unprivileged user), for tests.
        .target(name: "PostgresCluster", path: "Tests/PostgresCluster"),

        .testTarget(name: "ScrollStackCoreTests", dependencies: ["ScrollStackCore", "TestSeeds"]),
        .testTarget(name: "ScrollStackPagingTests", dependencies: ["ScrollStackPaging", "ScrollStackCore", "TestSeeds"]),
        .testTarget(name: "ScrollStackTransitionsTests", dependencies: ["ScrollStackTransitions", "ScrollStackCore", "TestSeeds"]),
        .testTarget(name: "ScrollStackPilesTests", dependencies: ["ScrollStackPiles", "ScrollStackTransitions", "ScrollStackCore", "TestSeeds"]),
        .testTarget(name: "JSONCodecTests", dependencies: ["JSONCodec", "CJansson", "TestSeeds"]),
        .testTarget(name: "ScrollStackTextTests", dependencies: ["ScrollStackText", "ScrollStackCore", "TestSeeds"]),
        .testTarget(name: "ZlibTests", dependencies: ["Zlib", "TestSeeds"]),
        .testTarget(name: "PostgresTests", dependencies: ["Postgres", "PostgresCluster", "ScrollStackPostgres", "ScrollStackStore",
                                                    "ScrollStackService", "JSONCodec", "MicroHTTP", "TestSeeds", "TestHTTPClient"]),
        .testTarget(name: "MicroHTTPTests", dependencies: ["MicroHTTP", "TestHTTPClient", "TestSeeds"]),
        .testTarget(
            name: "ScrollStackServiceTests",
            dependencies: ["ScrollStackService", "ScrollStackStore", "SQLite", "ScrollStackCore", "ScrollStackPiles", "ScrollStackText", "ScrollStackRender", "JSONCodec", "MicroHTTP", "TestHTTPClient", "Zlib", "Postgres", "TestSeeds"],
            // The answers' byte-identity record, read by AnswerCorpusTests from its source folder.
            exclude: ["Corpus"]
        ),
    ]
)
