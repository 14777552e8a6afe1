import ScrollStackText

/// Limits the service enforces on the values of request bodies (the HTTP layer bounds their
/// size).
public struct ServiceLimits: Sendable {
    /// The deepest free-form values (`props`) and content trees may nest, in arrays and
    /// objects (`nestingDepth`: `[[1]]` is 2). Deeper values are 422 `nesting_too_deep`.
    public var maxJSONDepth: Int

    public static let defaultMaxJSONDepth = 256

    /// Layouts, stacks and row lists of at least this many rows are streamed: encoded and sent
    /// a piece at a time as the client reads (`StackService+Streaming.swift`).
    public var streamedAnswerRows = 4096

    /// The most bytes a layout answer for several `devices` may take: each device lays the
    /// stack out again, so without a bound 16 devices turned a 1 MB body into 326 MB of
    /// answer and 12 s of CPU. Checked after each device,
    /// so a refused request costs at most this and one device's layout; 422 naming `devices`.
    public var devicesAnswerBytes = 64 << 20

    /// The most rows a layout drawing (SVG) may draw, all panels together (about 500 bytes
    /// of SVG each, built whole in memory, and no person reads a drawing of more). With
    /// several devices, 422 `invalid_value` naming `devices` beyond; a drawing of one layout
    /// beyond it (a full layout of a bigger stack) is 422 `work_budget_exceeded` naming
    /// `window`, refused before it is laid out: ask `window=visible` or a page (`from`, `limit`).
    public var devicesDrawnRows = 50_000

    /// The most pixels a PNG may have (width × height after `scale`): 16 Mi, some 64 MiB of
    /// RGBA while it is drawn. Beyond it 422 `work_budget_exceeded`, naming `scale` when a
    /// smaller scale would fit, else `window` (ask `window=visible` or a page).
    public var picturePixels = 16 << 20

    /// The most glyphs a picture (SVG or PNG) may draw: its rows' text, the menu's titles and
    /// its own labels. 250,000 glyphs are some 12 MB of SVG (a `<use>` each). Beyond it 422
    /// `work_budget_exceeded` naming `window`, the text past it never shaped.
    public var pictureGlyphs = 250_000

    /// The most row layouts one layout request with `devices` may compute: the stack's rows
    /// times the devices whose viewport differs from the stack's (each re-measures every row,
    /// whatever the window). Checked before anything is laid out; beyond it 422
    /// `work_budget_exceeded` naming `devices`.
    public var deviceLayoutRows = 1_000_000

    /// The most rows one layout answer of a composed screen (a stack whose rows embed stacks)
    /// may hold: its own rows and, down to the asked depth, each embedded stack's rows once
    /// for each row that embeds it, times the devices. Such answers are built whole, never
    /// streamed (about 250 bytes a row: 50 MB at the limit). Beyond it 422
    /// `work_budget_exceeded` naming `depth`.
    public var composedLayoutRows = 200_000

    /// The most text one layout request with `devices` may re-measure: the UTF-8 bytes of the
    /// stack's text nodes times the devices whose viewport differs from the stack's (each
    /// breaks every paragraph into lines again). Checked before anything is laid out; beyond
    /// it 422 `work_budget_exceeded` naming `devices`.
    public var deviceLayoutTextBytes = 8 << 20

    /// The most bytes of events one history answer (`GET …/events`) holds, and one live
    /// stream's catch-up sends before it ends (the client resumes from its `Last-Event-ID`).
    /// An answer always holds at least one whole revision, however big; beyond the budget it
    /// stops at a revision and links the rest (`next`).
    public var eventsAnswerBytes = 4 << 20

    /// The most requests that lay a stack out anew (stateless layouts, layouts for `devices`,
    /// drawings) served at once; more wait up to `layoutSlotPatience` for a slot (at most this
    /// many waiting), then get 503 `busy` with `Retry-After` (`LayoutGate`). The daemon sets it
    /// to its worker threads less one (at least 1), so a thread stays free.
    public var concurrentLayouts = 1

    /// How long a request laying a stack out anew waits for a slot when all are taken.
    public var layoutSlotPatience: Duration = .milliseconds(200)

    /// The most bytes the text engine's shaped paragraphs and sized fonts may take
    /// (`TextEngine.shapeCacheBytes`, `fontCacheBytes`), estimated; the least used go first.
    public var textCacheBytes = 64 << 20
    public var fontCacheBytes = 16 << 20
    /// How many texts the engine measures at once (`TextEngine`'s shards, which share out
    /// the cache bytes above): one per core, at most 8.
    public var textShards = TextEngine.defaultShards

    /// The most characters (Unicode scalars, as JSON Schema's `maxLength` counts) a menu
    /// title's text may hold; more is 422 naming the title. A menu item is a label, and each
    /// distinct line is shaped and kept in the shared shape cache (without a limit, 900 KB
    /// titles were taken). Replays take any (titles journaled before the limit).
    public var maxTitleCharacters = 1000

    /// Uploaded fonts (`POST /v1/fonts`): the most bytes one font may have (its body may be
    /// this large whatever `--max-body-bytes` says; 413 `payload_too_large` beyond), the most
    /// fonts kept (409 `font_limit_reached` beyond) and the most bytes they take together
    /// (409 `font_limit_reached` too).
    public var maxFontBytes = 8 << 20
    public var maxUploadedFonts = 64
    public var maxUploadedFontBytes = 128 << 20

    /// The highest `maxJSONDepth` accepted. jansson reads nothing nested deeper than 2048
    /// values; every stored encoding (snapshot, journaled request body, events) and every
    /// answer wraps a row's `props` in at most 4 containers, so at 1024 everything the
    /// service stores reads back, with room to spare for any future wrapping.
    public static let maxJSONDepthCeiling = 1024

    /// - Precondition: `maxJSONDepth` is in 1…`maxJSONDepthCeiling`.
    public init(maxJSONDepth: Int = defaultMaxJSONDepth) {
        precondition((1...Self.maxJSONDepthCeiling).contains(maxJSONDepth), "maxJSONDepth must be in 1…\(Self.maxJSONDepthCeiling)")
        self.maxJSONDepth = maxJSONDepth
    }

    /// What a replay of the journal accepts: whatever jansson reads, so that values stored
    /// under a higher limit, or by a server that had none, still come back (a lower limit
    /// applies to new requests only).
    static let replay: ServiceLimits = {
        var limits = ServiceLimits()
        limits.maxJSONDepth = .max
        limits.maxTitleCharacters = .max
        return limits
    }()
}
