import Futures
import SimpleFutures
import Testing

// A file that imports both modules: the names they share are qualified, and the rest resolve.

@Suite("SimpleFutures next to Futures")
struct BothModulesTests {
    @Test func bothModules() {
        let simple = SimpleFutures.Future<Int>(value: 1)
        let core: Futures.Future<Int, any Error> = simple.base
        #expect(core.value == 1)
    }

    @Test func sharedNamesResolveOnceQualified() {
        let token = CancelToken()
        let simple = SimpleFutures.Future<Int>()
        let mapped = simple.map(context: ImmediateContext(), cancelToken: token) { $0 + 1 }
        let core = Futures.Promise<Int, Never>()
        core.success(1)
        simple.success(1)
        #expect(mapped.result?.value == 2)
        #expect(core.future.value == 1)
        let stream = SimpleFutures.FutureStream<Int>(capacity: 1)
        stream.success(1)
        #expect(stream.count == 1)
    }
}
