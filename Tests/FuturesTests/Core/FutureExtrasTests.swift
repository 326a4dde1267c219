import Testing

@testable import Futures

/// The side table of per-future data (`FutureExtras`): an entry lives exactly as long as its future.
@Suite struct FutureExtrasTests {
    final class Marker: Sendable {}

    @Test func aFutureWithoutExtrasHasNoEntry() {
        let future = Future<Int, Never>()
        #expect(FutureExtras.entry(of: future) == nil)
    }

    @Test(arguments: [false, true])
    func theEntryIsReleasedWithItsFuture(completed: Bool) {
        weak var marker: Marker?
        do {
            let future = completed ? Future<Int, Never>(value: 1) : Future<Int, Never>()
            let strong = Marker()
            marker = strong
            FutureExtras.update(future) { $0.progress = strong }
            #expect(FutureExtras.entry(of: future)?.progress === strong)
        }
        #expect(marker == nil)
    }

    @Test func aFailedFutureReleasesItsEntryOnce() {
        weak var marker: Marker?
        do {
            let future = Future<Int, ComboError>(error: .first)
            let strong = Marker()
            marker = strong
            FutureExtras.update(future) { $0.trace = strong }
            _ = future.error  // observed: no report
        }
        #expect(marker == nil)
    }

    @Test func anEntryLeftEmptyIsRemoved() {
        let future = Future<Int, Never>()
        FutureExtras.update(future) { $0.progress = Marker() }
        FutureExtras.update(future) { $0.progress = nil }
        #expect(FutureExtras.entry(of: future) == nil)
    }
}
