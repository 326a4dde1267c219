#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The usable size of the smallest heap block among `samples` objects made by `make`, all alive at once:
/// what the allocator gives for the object's request.
///
/// One object alone is not enough: glibc may serve a small request from a larger free block that it does not
/// split (a remainder too small to be a block of its own), so a single `malloc_usable_size` depends on what
/// the rest of the test process freed before. Among many live objects the smallest is the block the request
/// size maps to. Returns 0 where the platform cannot tell.
func smallestHeapBlock(samples: Int = 64, of make: () -> AnyObject) -> Int {
    let objects = (0..<samples).map { _ in make() }
    return objects.map { usableBytes(of: $0) }.min() ?? 0
}

private func usableBytes(of object: AnyObject) -> Int {
    let pointer = Unmanaged.passUnretained(object).toOpaque()
    #if canImport(Glibc)
        return glibcMallocUsableSize(pointer)
    #elseif canImport(Darwin)
        return malloc_size(pointer)
    #else
        return 0
    #endif
}

#if canImport(Glibc)
    /// glibc's `malloc_usable_size` (declared in `<malloc.h>`, which the Glibc module does not export).
    @_silgen_name("malloc_usable_size")
    private func glibcMallocUsableSize(_ pointer: UnsafeMutableRawPointer) -> Int
#endif
