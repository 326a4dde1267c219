import Testing

@testable import Futures

@Suite("Future's description")
struct FutureDescriptionTests {
    @Test func descriptionShowsTheTypesAndTheResult() {
        #expect(Future<Int, Never>().description == "Future<Int, Never>(nil)")
        #expect(
            Future<Int, Never>(value: 1).description
                == "Future<Int, Never>(Optional(Swift.Result<Swift.Int, Swift.Never>.success(1)))")
        #expect(Future<Int, Never>(value: 1).debugDescription == Future<Int, Never>(value: 1).description)
    }
}
