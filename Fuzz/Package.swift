// swift-tools-version:6.0
import PackageDescription

// libFuzzer targets for ScrollStack Server (Fuzz/README.md). A package of its own, so the
// normal build and the container's copy list never see them: `make fuzz` builds it with
// `-sanitize=fuzzer,address` in `.build-fuzz`.
let package = Package(
    name: "ScrollStackFuzz",
    platforms: [.macOS(.v15)],
    dependencies: [
        .package(name: "ScrollStackServer", path: ".."),
    ],
    targets: [
        // libFuzzer's `LLVMFuzzerRunDriver`, declared weak so that a build without the fuzzer
        // still links (the targets then say so and exit 2).
        .systemLibrary(name: "CLibFuzzer"),
        .target(name: "FuzzSupport", dependencies: ["CLibFuzzer", .product(name: "JSONCodec", package: "ScrollStackServer")]),

        // parse → serialize → parse: the same value and the same text.
        .executableTarget(name: "fuzz-json", dependencies: ["FuzzSupport", .product(name: "JSONCodec", package: "ScrollStackServer")]),
        // The service's decoders on any JSON: no crash, every error names a field of the input.
        .executableTarget(name: "fuzz-decoding", dependencies: [
            "FuzzSupport",
            .product(name: "JSONCodec", package: "ScrollStackServer"),
            .product(name: "ScrollStackService", package: "ScrollStackServer"),
            .product(name: "ScrollStackCore", package: "ScrollStackServer"),
        ]),
        // Requests (method, target, headers, body) through `StackService.handle`, the model's
        // invariants checked after each.
        .executableTarget(name: "fuzz-handler", dependencies: [
            "FuzzSupport",
            .product(name: "JSONCodec", package: "ScrollStackServer"),
            .product(name: "MicroHTTP", package: "ScrollStackServer"),
            .product(name: "ScrollStackService", package: "ScrollStackServer"),
            .product(name: "ScrollStackCore", package: "ScrollStackServer"),
        ]),
    ]
)
