import BrightFutures
import Testing

@Suite("BrightFutures module: names spelled through the module")
struct ModuleNameTests {
    @Test func moduleQualifiedNamesReachTheCore() {
        let future: BrightFutures.Future<Int, Never> = BrightFutures.materialize { done in done(1) }
        #expect(future.value == 1)
    }
}
