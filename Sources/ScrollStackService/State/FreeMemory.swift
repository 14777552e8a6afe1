#if canImport(Glibc)
import Glibc
#endif

/// Gives the heap's free memory back to the system.
///
/// glibc keeps what a program frees for its next allocations: after a million-row stack is
/// deleted, its rows' many small blocks stay in the process (its RSS) until `malloc_trim`
/// returns the free pages. Called after deleting a stack; it walks the heap, O(heap size),
/// which a deletion can afford.
enum FreeMemory {
    /// glibc's `malloc_trim`, looked up at run time (`<malloc.h>` is not in Swift's Glibc
    /// module); nil with another C library, where this does nothing.
    private static let mallocTrim: (@convention(c) (Int) -> Int32)? = {
        #if canImport(Glibc)
        guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "malloc_trim") else { return nil }
        return unsafeBitCast(symbol, to: (@convention(c) (Int) -> Int32).self)
        #else
        return nil
        #endif
    }()

    static func returnToSystem() {
        _ = mallocTrim?(0)
    }
}
