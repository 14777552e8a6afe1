import Synchronization

/// Memory pictures are drawn and filtered in, kept between pictures: a picture's few
/// megabytes, freshly mapped each time, cost more in page faults than in drawing. At most
/// `kept` blocks of at most `largest` bytes are kept; a caller that finds none free gets a
/// new block (so drawings never wait on each other here).
enum Scratch {
    static let kept = 4
    static let largest = 16 << 20

    /// A block of memory owned by whoever took it from `free` (one holder at a time).
    private struct Block: @unchecked Sendable {
        let pointer: UnsafeMutableRawPointer
        let size: Int
    }

    private static let free = Mutex<[Block]>([])

    /// Runs `body` with at least `size` bytes (16-byte aligned, contents unspecified), then
    /// keeps them for the next caller. O(kept) besides `body`, and a fresh block's allocation.
    static func withBytes<T>(_ size: Int, _ body: (UnsafeMutablePointer<UInt8>) throws -> T) rethrows -> T {
        let size = max(size, 1)
        let block = free.withLock { blocks -> Block? in
            guard let at = blocks.firstIndex(where: { $0.size >= size }) else { return nil }
            return blocks.remove(at: at)
        } ?? Block(pointer: UnsafeMutableRawPointer.allocate(byteCount: size, alignment: 16), size: size)
        defer {
            let dropped = free.withLock { blocks -> Block? in
                guard block.size <= largest else { return block }
                blocks.append(block)
                // Keep the biggest: a small block is the first to go.
                guard blocks.count > kept, let smallest = blocks.indices.min(by: { blocks[$0].size < blocks[$1].size }) else { return nil }
                return blocks.remove(at: smallest)
            }
            dropped?.pointer.deallocate()
        }
        return try body(block.pointer.bindMemory(to: UInt8.self, capacity: block.size))
    }
}
