import CFreeType

/// A FreeType library instance, freed when the last face made from it is gone.
final class FreeTypeLibrary: @unchecked Sendable {
    let handle: FT_Library?

    init() {
        var library: FT_Library?
        handle = FT_Init_FreeType(&library) == 0 ? library : nil
    }

    deinit {
        if let handle { FT_Done_FreeType(handle) }
    }
}
