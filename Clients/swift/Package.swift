// swift-tools-version:6.0
// The Swift client of ScrollStack Server, generated from Docs/openapi.yaml at build time by
// apple/swift-openapi-generator. A package of its own, so that the service's build does not
// carry the generator; Scripts/checks/75-swift-client.sh builds it and tests it against a live
// server.
import PackageDescription

let package = Package(
    name: "ScrollStackClient",
    platforms: [.macOS(.v13)],
    products: [.library(name: "ScrollStackClient", targets: ["ScrollStackClient"])],
    dependencies: [
        .package(url: "https://github.com/apple/swift-openapi-generator", exact: "1.14.3"),
        .package(url: "https://github.com/apple/swift-openapi-runtime", exact: "1.13.4"),
        .package(url: "https://github.com/apple/swift-openapi-urlsession", exact: "1.4.0"),
    ],
    targets: [
        .target(
            name: "ScrollStackClient",
            dependencies: [
                .product(name: "OpenAPIRuntime", package: "swift-openapi-runtime"),
                .product(name: "OpenAPIURLSession", package: "swift-openapi-urlsession"),
            ],
            plugins: [.plugin(name: "OpenAPIGenerator", package: "swift-openapi-generator")]
        ),
        .testTarget(name: "ScrollStackClientTests", dependencies: ["ScrollStackClient"]),
    ]
)
