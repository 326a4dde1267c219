import Testing

@testable import Futures

@Suite("?? operators")
struct FutureOperatorsTests {
    @Test func nilCoalescingAValueRecoversAFailure() {
        let recovered = DefaultExecutionContext.withDefault(immediateExecutionContext) {
            Future<Int, ComboError>(error: .first) ?? 5
        }
        #expect(recovered.value == 5)
    }

    @Test func nilCoalescingAValueKeepsASuccessAndDoesNotEvaluateTheFallback() {
        let evaluations = Counter()
        @Sendable func fallback() -> Int {
            evaluations.increment()
            return 0
        }
        let kept = DefaultExecutionContext.withDefault(immediateExecutionContext) {
            Future<Int, ComboError>(value: 1) ?? fallback()
        }
        #expect(kept.value == 1 && evaluations.value == 0)
    }

    @Test func nilCoalescingAFutureRecoversWithThatFuture() {
        let recovered: Future<Int, ComboError> = DefaultExecutionContext.withDefault(immediateExecutionContext) {
            Future<Int, ComboError>(error: .first) ?? Future<Int, ComboError>(error: .second)
        }
        #expect(recovered.error == .second)
        let second = DefaultExecutionContext.withDefault(immediateExecutionContext) {
            Future<Int, ComboError>(error: .first) ?? Future<Int, Never>(value: 8)
        }
        #expect(second.value == 8)
    }
}
