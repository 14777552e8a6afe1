import ArgumentParser
import ScrollStackService

/// `scrollstackd`'s options for text: the fonts text rows may use besides the built-in ones,
/// and the memory the text engine keeps shaped text and sized fonts in.
struct TextOptions: ParsableArguments {
    @Option(help: "A folder whose font files (.ttf, .otf, .ttc, .otc) text nodes may use besides Inter and DejaVu; repeat for more.")
    var fontDir: [String] = []

    @Option(help: "The most bytes the text engine's shaped paragraphs may take (estimated; the least used go first).")
    var textCacheBytes = ServiceLimits().textCacheBytes
    @Option(help: "The most bytes the text engine's sized fonts (a face at one size) may take (estimated; the least used go first).")
    var fontCacheBytes = ServiceLimits().fontCacheBytes

    func validate() throws {
        for (name, value) in [("--text-cache-bytes", textCacheBytes), ("--font-cache-bytes", fontCacheBytes)] {
            guard value >= 1 else { throw ValidationError("\(name) must be at least 1") }
        }
    }
}
