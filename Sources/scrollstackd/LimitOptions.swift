import ArgumentParser
import ScrollStackService

/// `scrollstackd`'s limits on one request: its size, nesting and time to arrive, and the work
/// a layout for other devices or a drawing may take, and how many layouts run at once.
struct LimitOptions: ParsableArguments {
    @Option(help: "The largest request body accepted, in bytes; larger ones get 413 unread.")
    var maxBodyBytes = 1 << 20

    @Option(help: "Seconds a request has to arrive whole (head and body), from the connection's opening or the previous answer; a trickle cannot extend it.")
    var requestDeadline = 60

    @Option(help: "How deeply a row's props and content may nest in arrays and objects (1…\(ServiceLimits.maxJSONDepthCeiling)); deeper ones get 422.")
    var maxJSONDepth = ServiceLimits.defaultMaxJSONDepth
    @Option(help: "The most row layouts one layout request with devices may compute (rows × devices whose viewport differs from the stack's); more get 422 work_budget_exceeded.")
    var deviceLayoutRows = ServiceLimits().deviceLayoutRows
    @Option(help: "The most text one layout request with devices may re-measure (UTF-8 bytes of the stack's text × devices whose viewport differs); more get 422 work_budget_exceeded.")
    var deviceLayoutTextBytes = ServiceLimits().deviceLayoutTextBytes
    @Option(help: "The most rows a layout drawing (SVG) may hold, all panels together; more get 422.")
    var drawnRows = ServiceLimits().devicesDrawnRows
    @Option(help: "The most requests that lay a stack out anew (stateless layouts, layouts for devices, drawings) served at once; more get 503 busy with Retry-After. Default: --threads less one, at least 1, so a thread stays free for everything else.")
    var concurrentLayouts: Int?
    @Option(help: "The largest font POST /v1/fonts accepts, in bytes (its body may be this large whatever --max-body-bytes says); larger ones get 413.")
    var maxFontBytes = ServiceLimits().maxFontBytes
    @Option(help: "The most uploaded fonts kept; another upload gets 409 font_limit_reached.")
    var maxUploadedFonts = ServiceLimits().maxUploadedFonts
    @Option(help: "The most bytes the uploaded fonts may take together; an upload past it gets 409 font_limit_reached.")
    var maxUploadedFontBytes = ServiceLimits().maxUploadedFontBytes

    func validate() throws {
        guard maxBodyBytes >= 1 else { throw ValidationError("--max-body-bytes must be at least 1") }
        guard requestDeadline >= 1 else { throw ValidationError("--request-deadline must be at least 1 second") }
        guard (1...ServiceLimits.maxJSONDepthCeiling).contains(maxJSONDepth) else {
            throw ValidationError("--max-json-depth must be 1…\(ServiceLimits.maxJSONDepthCeiling)")
        }
        for (name, value) in [("--device-layout-rows", deviceLayoutRows), ("--device-layout-text-bytes", deviceLayoutTextBytes), ("--drawn-rows", drawnRows)] {
            guard value >= 1 else { throw ValidationError("\(name) must be at least 1") }
        }
        for (name, value) in [("--max-font-bytes", maxFontBytes), ("--max-uploaded-font-bytes", maxUploadedFontBytes)] {
            guard value >= 1 else { throw ValidationError("\(name) must be at least 1") }
        }
        guard maxUploadedFonts >= 0 else { throw ValidationError("--max-uploaded-fonts must be 0 (no uploads) or more") }
        if let concurrentLayouts, concurrentLayouts < 1 { throw ValidationError("--concurrent-layouts must be at least 1") }
    }
}
