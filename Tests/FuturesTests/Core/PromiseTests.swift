import Foundation
import Testing

@testable import Futures

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

@Suite("Promise: a small object that names where it was made")
struct PromiseTests {
    @Test func aDroppedPromiseIsReportedWithTheFileAndLineWhereItWasCreated() {
        let line: UInt = #line + 1
        let (_, diagnostics) = gDiagnosing { Promise<Int, any Error>().future }
        guard case .promiseDropped(let type, let file, let reportedLine)? = diagnostics.first else {
            Issue.record("got \(diagnostics)")
            return
        }
        #expect(type == "Promise<Int, Error>")
        #expect(file == "FuturesTests/PromiseTests.swift")
        #expect(reportedLine == line)
    }

    @Test func anExplicitCallSiteIsKeptAsGiven() {
        let (_, diagnostics) = gDiagnosing {
            Promise<Int, any Error>(file: "Module/Explicit.swift", line: 4_242).future
        }
        guard case .promiseDropped(_, let file, let line)? = diagnostics.first else {
            Issue.record("got \(diagnostics)")
            return
        }
        #expect(file == "Module/Explicit.swift")
        #expect(line == 4_242)
    }

    @Test func aCallSiteMadeFromOneScalarHasNoPointerButKeepsItsName() {
        let site = CallSite(file: StaticString(unicodeScalarLiteral: "é"), line: 3)
        #expect(site.file == "é")
        #expect(site.line == 3)
    }

    /// Issue 10: the promise keeps its creation site in two words, so the whole object is 40 bytes
    /// (header 16, future 8, site 16): the allocator serves it from a 48-byte chunk, where a `StaticString`
    /// and a `UInt` made it 56 bytes in a 64-byte chunk.
    @Test func aPromiseIsAFortyByteAllocation() {
        #expect(MemoryLayout<CallSite>.size == 16)
        let promise = Promise<Int, Never>()
        #expect(allocatedBytes(promise) <= 40)
        promise.success(1)
    }
}

/// The usable size of the heap block holding `object` (what the allocator gave for its request).
private func allocatedBytes(_ object: AnyObject) -> Int {
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
